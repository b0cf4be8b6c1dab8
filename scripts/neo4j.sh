#!/usr/bin/env bash
# A local Neo4j 5 LTS Community server for paperkg's tests, CI and developers, from Maven Central.
#
#   bash scripts/neo4j.sh install   fetch the server and Browser jars once (cached; a no-op afterwards)
#   bash scripts/neo4j.sh start     write neo4j.conf, set the initial password, start, wait for Bolt
#   bash scripts/neo4j.sh stop      stop the server this script started
#   bash scripts/neo4j.sh status    exit 0 when a server answers on the Bolt port, 3 when not
#   bash scripts/neo4j.sh reset     stop and delete the data (the next start sets the password anew)
#
# Settings (environment):
#   PAPERKG_NEO4J_HOME  where jars, conf, data, logs live        (default: <repo>/.neo4j; the tests' server
#                       runs from <repo>/.neo4j/tests, lib/ linked to this one: tests/neo4j_fixtures.py)
#   NEO4J_VERSION       org.neo4j:neo4j version                  (default: 5.26.30, the 5.x LTS line)
#   NEO4J_BROWSER_VERSION org.neo4j.client:neo4j-browser version (default: 5.24.0, the newest on Maven Central)
#   NEO4J_BOLT_PORT     Bolt port on 127.0.0.1                   (default: 7687; the tests pick their own)
#   NEO4J_HTTP_PORT     HTTP (Neo4j Browser at /browser/) on 127.0.0.1 (default: 7474; the tests pick their own)
#   NEO4J_PASSWORD      password of user neo4j                   (default: paperkg-neo4j; >= 8 chars)
#   NEO4J_HEAP          JVM heap, initial = max                  (default: 1g)
#   NEO4J_START_TIMEOUT seconds to wait for Bolt                 (default: 180)
#   JAVA_HOME           a Java 17 or 21 (default: the `java` on PATH)
#
# How it works (found on this machine, Neo4j 5.26.30):
# - Maven Central has no Neo4j tarball, but org.neo4j:neo4j's runtime dependencies are the
#   whole Community server. A throwaway pom listing that dependency and
#   `mvn dependency:copy-dependencies` give $NEO4J_HOME/lib (~210 jars, ~170 MB); ~/.m2 caches them.
# - Neo4j Browser is not among those dependencies: it is the separate jar
#   org.neo4j.client:neo4j-browser (static files under browser/), listed in the same pom. The
#   server's own Neo4jBrowserModule (neo4j-server, already in lib) serves the classpath's
#   browser/ at http://127.0.0.1:$NEO4J_HTTP_PORT/browser/ when no Browser zip lies in the web
#   directory. `install` is a no-op only when lib/.version names both versions and the Browser
#   jar is there, so an older install without the Browser gets it on the next `install`.
# - With the jars in $NEO4J_HOME/lib, the tarball's own launcher classes work unchanged:
#   `org.neo4j.server.startup.Neo4jCommand start|stop|status` (what bin/neo4j runs; it forks
#   `org.neo4j.server.CommunityEntryPoint`, writes run/neo4j.pid and reads server.jvm.* and
#   server.memory.* from neo4j.conf) and `org.neo4j.cli.AdminTool` (bin/neo4j-admin).
# - The initial password is set before the first start with
#   `AdminTool dbms set-initial-password @FILE`: the password is read from a picocli @-file
#   (mode 600, deleted right after), so it never shows in a process list. The command writes
#   data/dbms/auth.ini, which the server consumes when it creates the system database.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NEO4J_HOME="${PAPERKG_NEO4J_HOME:-$REPO_ROOT/.neo4j}"
NEO4J_VERSION="${NEO4J_VERSION:-5.26.30}"
BOLT_PORT="${NEO4J_BOLT_PORT:-7687}"
BROWSER_VERSION="${NEO4J_BROWSER_VERSION:-5.24.0}"
HTTP_PORT="${NEO4J_HTTP_PORT:-7474}"
PASSWORD="${NEO4J_PASSWORD:-paperkg-neo4j}"
HEAP="${NEO4J_HEAP:-1g}"
START_TIMEOUT="${NEO4J_START_TIMEOUT:-180}"
LIB="$NEO4J_HOME/lib"
CONF_DIR="$NEO4J_HOME/conf"
export NEO4J_HOME NEO4J_CONF="$CONF_DIR"

say() { printf 'neo4j.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

pick_java() {
  # The launcher forks `$JAVA_HOME/bin/java`; Neo4j 5 runs on Java 17 or 21 only.
  if [[ -z "${JAVA_HOME:-}" ]]; then
    local java_bin
    java_bin="$(command -v java)" || die "no java on PATH; install a JDK 17 or set JAVA_HOME."
    JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$java_bin")")")"
  fi
  local major
  major="$("$JAVA_HOME/bin/java" -XshowSettings:properties -version 2>&1 \
           | sed -n 's/^ *java.specification.version = //p')"
  [[ "$major" == 17 || "$major" == 21 ]] \
    || die "Neo4j $NEO4J_VERSION needs Java 17 or 21, but $JAVA_HOME has Java $major; set JAVA_HOME."
  export JAVA_HOME
}

launcher() { "$JAVA_HOME/bin/java" -cp "$LIB/*" "$@"; }

bolt_open() { (exec 3<>"/dev/tcp/127.0.0.1/$BOLT_PORT") 2>/dev/null; }

our_server_running() { [[ -f "$NEO4J_HOME/run/neo4j.pid" ]] && kill -0 "$(cat "$NEO4J_HOME/run/neo4j.pid")" 2>/dev/null; }

cmd_install() {
  local stamp="neo4j $NEO4J_VERSION, neo4j-browser $BROWSER_VERSION"
  if [[ -f "$LIB/.version" && "$(cat "$LIB/.version")" == "$stamp" \
        && -f "$LIB/neo4j-browser-$BROWSER_VERSION.jar" ]]; then
    say "$stamp already installed in $LIB"
    return
  fi
  # The running JVM loads classes from these jars lazily: never swap them under it.
  ! our_server_running || die "stop the server (bash scripts/neo4j.sh stop) before installing $stamp"
  command -v mvn >/dev/null || die "Maven (mvn) is needed to fetch Neo4j: apt-get install maven."
  local build="$NEO4J_HOME/build"
  mkdir -p "$build"
  cat >"$build/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>paperkg.local</groupId>
  <artifactId>neo4j-server-jars</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.neo4j</groupId>
      <artifactId>neo4j</artifactId>
      <version>$NEO4J_VERSION</version>
    </dependency>
    <dependency>
      <groupId>org.neo4j.client</groupId>
      <artifactId>neo4j-browser</artifactId>
      <version>$BROWSER_VERSION</version>
    </dependency>
  </dependencies>
</project>
POM
  say "fetching $stamp from Maven Central (once; cached in ~/.m2 and $LIB)"
  rm -rf "$LIB.partial"
  mvn -B -q -f "$build/pom.xml" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$LIB.partial"
  local jar
  for jar in "neo4j-$NEO4J_VERSION.jar" "neo4j-browser-$BROWSER_VERSION.jar"; do
    [[ -f "$LIB.partial/$jar" ]] || die "Maven did not deliver $jar"
  done
  echo "$stamp" >"$LIB.partial/.version"
  rm -rf "$LIB"
  mv "$LIB.partial" "$LIB"
  say "installed $stamp in $LIB"
}

write_conf() {
  mkdir -p "$CONF_DIR"
  cat >"$CONF_DIR/neo4j.conf" <<CONF
# Written by scripts/neo4j.sh on every start; edit the script, not this file.
server.default_listen_address=127.0.0.1
server.default_advertised_address=127.0.0.1
server.bolt.listen_address=127.0.0.1:$BOLT_PORT
server.bolt.advertised_address=127.0.0.1:$BOLT_PORT
server.http.listen_address=127.0.0.1:$HTTP_PORT
server.http.advertised_address=127.0.0.1:$HTTP_PORT
server.https.enabled=false
dbms.security.auth_enabled=true
dbms.usage_report.enabled=false
# Neo4j Browser: no product-analytics consent banner, no usage or crash reports (client.allow_telemetry
# is the initial state of Browser's analytics settings; Neo4j 5.26 no longer has
# browser.allow_outgoing_connections, and its strict config validation refuses it).
client.allow_telemetry=false
server.memory.heap.initial_size=$HEAP
server.memory.heap.max_size=$HEAP
server.memory.pagecache.size=256m
db.tx_log.rotation.retention_policy=2 files
server.jvm.additional=-XX:+UseG1GC
server.jvm.additional=-XX:-OmitStackTraceInFastThrow
server.jvm.additional=-XX:+DisableExplicitGC
server.jvm.additional=-Djdk.nio.maxCachedBufferSize=1024
server.jvm.additional=-Dio.netty.tryReflectionSetAccessible=true
server.jvm.additional=--add-opens=java.base/java.nio=ALL-UNNAMED
server.jvm.additional=--add-opens=java.base/java.io=ALL-UNNAMED
server.jvm.additional=--add-opens=java.base/sun.nio.ch=ALL-UNNAMED
server.jvm.additional=-Dlog4j2.disable.jmx=true
CONF
}

set_initial_password() {
  # Only before the system database exists: afterwards the server owns the password.
  [[ -d "$NEO4J_HOME/data/databases/system" ]] && return
  (( ${#PASSWORD} >= 8 )) || die "NEO4J_PASSWORD must have at least 8 characters."
  local args quoted status=0
  args="$(umask 077 && mktemp)"
  # picocli @-file: one argument in double quotes, with \ and " escaped.
  quoted="${PASSWORD//\\/\\\\}"
  printf '"%s"\n' "${quoted//\"/\\\"}" >"$args"
  launcher org.neo4j.cli.AdminTool dbms set-initial-password "@$args" >/dev/null || status=$?
  rm -f "$args"
  (( status == 0 )) || die "setting the initial password failed (exit $status)"
  say "initial password of user neo4j set (from NEO4J_PASSWORD)"
}

wait_for_bolt() {
  # Bolt opens a moment before the databases are online; "Started." in neo4j.log (after the
  # lines it had before this start) marks the server ready for queries.
  local log_lines_before="$1" waited=0
  until bolt_open && tail -n "+$((log_lines_before + 1))" "$NEO4J_HOME/logs/neo4j.log" 2>/dev/null \
                     | grep -q "Started\.$"; do
    our_server_running || die "the server exited while starting; see $NEO4J_HOME/logs/neo4j.log"
    (( waited++ < START_TIMEOUT )) || die "no Bolt on 127.0.0.1:$BOLT_PORT after ${START_TIMEOUT}s; see $NEO4J_HOME/logs/"
    sleep 1
  done
}

running_bolt_port() { sed -n 's/^server\.bolt\.listen_address=.*://p' "$CONF_DIR/neo4j.conf" 2>/dev/null; }

cmd_start() {
  if our_server_running; then
    [[ "$(running_bolt_port)" == "$BOLT_PORT" ]] \
      || die "the server of $NEO4J_HOME already runs with Bolt on port $(running_bolt_port), not $BOLT_PORT; stop it first"
    say "already running (pid $(cat "$NEO4J_HOME/run/neo4j.pid")), Bolt on 127.0.0.1:$BOLT_PORT"
    return
  fi
  if bolt_open; then
    say "another server already listens on 127.0.0.1:$BOLT_PORT; using it as it is"
    return
  fi
  cmd_install
  pick_java
  write_conf
  set_initial_password
  mkdir -p "$NEO4J_HOME/logs"
  local log_lines_before=0
  [[ -f "$NEO4J_HOME/logs/neo4j.log" ]] && log_lines_before="$(wc -l <"$NEO4J_HOME/logs/neo4j.log")"
  launcher org.neo4j.server.startup.Neo4jCommand start >"$NEO4J_HOME/logs/launcher.log" 2>&1 \
    || die "the launcher failed; see $NEO4J_HOME/logs/launcher.log"
  wait_for_bolt "$log_lines_before"
  say "Neo4j $NEO4J_VERSION up: bolt://127.0.0.1:$BOLT_PORT, http://127.0.0.1:$HTTP_PORT (user neo4j)"
}

cmd_stop() {
  if ! our_server_running; then
    say "not running (started by this script)"
    return
  fi
  pick_java
  launcher org.neo4j.server.startup.Neo4jCommand stop >>"$NEO4J_HOME/logs/launcher.log" 2>&1
  say "stopped"
}

cmd_status() {
  if our_server_running && bolt_open; then
    say "running (pid $(cat "$NEO4J_HOME/run/neo4j.pid")), Bolt on 127.0.0.1:$BOLT_PORT"
  elif bolt_open; then
    say "a server not started by this script answers on 127.0.0.1:$BOLT_PORT"
  elif our_server_running; then
    say "starting (pid $(cat "$NEO4J_HOME/run/neo4j.pid")), Bolt not open yet"
    exit 3
  else
    say "not running"
    exit 3
  fi
}

cmd_reset() {
  cmd_stop
  rm -rf "$NEO4J_HOME/data" "$NEO4J_HOME/run"
  say "data deleted; the next start sets the password from NEO4J_PASSWORD"
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  reset) cmd_reset ;;
  *) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
