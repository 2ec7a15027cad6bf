# shellcheck shell=bash disable=SC2034  # the NR_* variables are for the scripts sourcing this
# Sourced by script/bootstrap, script/server and script/test: picks the JRuby/JDK pair and names
# the paths of the toolchain that script/bootstrap installs under .toolchain/.
#
#   NETTYRACK_JRUBY       10.1 (default, = 10.1.1.0 on Temurin 25) | 9.4 (= 9.4.15.0 on Java 17)
#                         | a full JRuby version such as 9.4.14.0 (9.x runs on Java 17, 10.x on Temurin 25)
#   NETTYRACK_JAVA_HOME   use this JDK instead of the default one for that JRuby line

NR_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
NR_TC=$NR_ROOT/.toolchain

say() { printf '==> %s\n' "$*" >&2; }
die() { printf '==> error: %s\n' "$*" >&2; exit 1; }

nr_resolve_versions() {
  local want=${NETTYRACK_JRUBY:-10.1}
  case $want in
    10 | 10.1) NR_JRUBY_VERSION=10.1.1.0 ;;
    9 | 9.4) NR_JRUBY_VERSION=9.4.15.0 ;;
    [0-9]*.[0-9]*.[0-9]*.[0-9]*) NR_JRUBY_VERSION=$want ;;
    *) die "NETTYRACK_JRUBY=$want is not a JRuby version: use 10.1 (the default), 9.4, or a full version such as 9.4.15.0" ;;
  esac
  case $NR_JRUBY_VERSION in
    9.*) NR_JAVA_DEFAULT=/usr/lib/jvm/java-17-openjdk-amd64 NR_JAVA_NAME="Java 17" ;;
    *) NR_JAVA_DEFAULT=/usr/lib/jvm/temurin-25-jdk-amd64 NR_JAVA_NAME="Temurin 25" ;;
  esac
  NR_JAVA_HOME=${NETTYRACK_JAVA_HOME:-$NR_JAVA_DEFAULT}
  if [ -n "${NETTYRACK_JAVA_HOME:-}" ]; then NR_JAVA_NAME="the JDK at $NETTYRACK_JAVA_HOME"; fi
  NR_JRUBY_HOME=$NR_TC/jruby-$NR_JRUBY_VERSION
  NR_SHIM=$NR_TC/gems-$NR_JRUBY_VERSION
  NR_ENV_FILE=$NR_TC/env-$NR_JRUBY_VERSION.sh
  # Gemfile.lock belongs to the primary JRuby (10.1.1.0). Any other version locks the same Gemfile
  # in .toolchain/Gemfile-<version>.lock, through a one-line Gemfile there that script/bootstrap
  # writes, so the two lines can be used side by side. script/test exports BUNDLE_GEMFILE.
  if [ "$NR_JRUBY_VERSION" = 10.1.1.0 ]; then
    NR_GEMFILE=$NR_ROOT/Gemfile
  else
    NR_GEMFILE=$NR_TC/Gemfile-$NR_JRUBY_VERSION
  fi
}

# Feature release of the JDK at $1 (17, 25, ...), read from its `release` file.
nr_java_feature() {
  sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null
}

# Maven in batch mode, without download progress or colours. Debian's Maven 3.8 prints stray
# ESC[0m resets unless jansi.noreset is set, and its Guava calls sun.misc.Unsafe, which Java 24+
# warns about on every run: allow that there.
nr_mvn() {
  local opts="${MAVEN_OPTS:-} -Djansi.noreset=true" feature
  feature=$(nr_java_feature "${JAVA_HOME:-$NR_JAVA_HOME}")
  if [ "${feature:-0}" -ge 24 ]; then opts="$opts --sun-misc-unsafe-memory-access=allow"; fi
  MAVEN_OPTS=$opts mvn -B -ntp -Dstyle.color=never "$@"
}

nr_resolve_versions

# JRUBY_OPTS for the servers these scripts start. Java 22+ warns on stderr whenever a library
# loads native code without --enable-native-access (Netty's epoll transport does), which would
# bury nettyrack's one boot line; the flag is harmless on older JDKs, so pass it only where known.
nr_jruby_opts() {
  local feature
  feature=$(nr_java_feature "${JAVA_HOME:-$NR_JAVA_HOME}")
  if [ "${feature:-0}" -ge 22 ]; then
    printf '%s' "-J--enable-native-access=ALL-UNNAMED${JRUBY_OPTS:+ $JRUBY_OPTS}"
  else
    printf '%s' "${JRUBY_OPTS:-}"
  fi
}
