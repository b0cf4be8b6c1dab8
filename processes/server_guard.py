"""Imported first in a pre-loaded pool's fork server (paperkg.processes.pool): the server dies with the
process that started it, and with it every worker it forked (they die with it in turn)."""
from paperkg.processes.forked import die_with_parent

die_with_parent()
