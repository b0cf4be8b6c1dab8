"""Imported only in the multiprocessing fork server (paperkg.orchestrate.parallel preloads it there): the server dies
with the build that started it, and with it every worker it forked (they die with it in turn)."""
from paperkg.core.forked import die_with_parent

die_with_parent()
