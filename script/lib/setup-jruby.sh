# shellcheck shell=bash
# Sourced by script/bootstrap (after toolchain.sh). Installs JRuby and makes Debian's ruby-* gem
# packages usable from it, for a Debian bookworm machine that reaches Maven Central and apt but
# not RubyGems.org:
#   - apt: Debian's gem packages (they pull in Debian's MRI ruby; JRuby never loads it) and tools;
#   - JRuby from Maven Central (org.jruby:jruby-dist:<version>:tar.gz:bin, dependency:copy goal);
#   - a "shim" gem dir, first on GEM_PATH, that fills the gaps between Debian's gems and JRuby.
# Each nr_* step prints what it does (step) or that there was nothing to do (skip); script/bootstrap
# defines those two.

NR_DEB_GEMS=/usr/share/rubygems-integration/all
NR_VENDOR_RUBY=/usr/lib/ruby/vendor_ruby
NR_RUBY_PKGS="ruby-rack ruby-rack-test ruby-rspec ruby-minitest ruby-sinatra ruby-rails ruby-concurrent
  ruby-redis ruby-sequel ruby-websocket-driver ruby-actioncable ruby-nio4r"
# Benchmarks and tests (puma: Debian's, for CRuby; python3-venv: script/lib/python.sh; chromium: browser specs;
# nginx with its stream module, and haproxy: PROXY protocol senders, which the specs run as their own processes;
# Debian also starts their system services on install unless a policy-rc.d forbids it, as in containers)
NR_TOOL_PKGS="curl wrk nghttp2-client puma redis-server python3-venv chromium nginx libnginx-mod-stream haproxy systemd prometheus"

# --- JDK ------------------------------------------------------------------------------------------
# Sets NR_APT_EXTRA when the JDK can come from apt; dies when it cannot.
nr_check_jdk() {
  NR_APT_EXTRA=
  [ -x "$NR_JAVA_HOME/bin/javac" ] && return 0
  if [ "$NR_JAVA_HOME" = /usr/lib/jvm/java-17-openjdk-amd64 ]; then
    say "no JDK at $NR_JAVA_HOME: JRuby $NR_JRUBY_VERSION needs Java 17, installing openjdk-17-jdk-headless"
    NR_APT_EXTRA=openjdk-17-jdk-headless
  elif [ -n "${NETTYRACK_JAVA_HOME:-}" ]; then
    die "NETTYRACK_JAVA_HOME=$NR_JAVA_HOME is not a JDK (no bin/javac there)."
  else
    die "JRuby $NR_JRUBY_VERSION needs $NR_JAVA_NAME at $NR_JAVA_HOME, which is missing and cannot be installed from Debian's apt here: install Temurin 25 (adoptium.net), set NETTYRACK_JAVA_HOME to another JDK 21+, or use NETTYRACK_JRUBY=9.4 (JRuby 9.4 on Java 17)."
  fi
}

# --- 1. apt packages --------------------------------------------------------------------------------
nr_missing_pkgs() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || echo "$p"
  done
}

nr_apt_packages() {
  local pkgs missing sudo=
  pkgs="$NR_RUBY_PKGS $NR_TOOL_PKGS $NR_APT_EXTRA"
  command -v mvn >/dev/null || pkgs="$pkgs maven"
  command -v node >/dev/null || pkgs="$pkgs nodejs" # script/lib/node.sh; a Node.js from elsewhere
  command -v npm >/dev/null || pkgs="$pkgs npm"     # often carries its own npm, so look for commands
  # shellcheck disable=SC2086
  missing=$(nr_missing_pkgs $pkgs | tr '\n' ' ')
  if [ -z "${missing// /}" ]; then skip "apt packages: all installed"; return 0; fi
  step "apt-get install $missing"
  command -v apt-get >/dev/null || die "apt-get not found: install these Debian packages by hand: $missing"
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "not root and no sudo: run as root, or install: $missing"
    sudo=sudo
  fi
  # shellcheck disable=SC2086
  {
    $sudo apt-get -o DPkg::Lock::Timeout=600 -qq update &&
      $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q -y \
        --no-install-recommends install $missing
  } >&2 </dev/null || die "apt-get install failed (see above)"
  [ -x "$NR_JAVA_HOME/bin/javac" ] || die "still no JDK at $NR_JAVA_HOME after apt-get install."
}

# --- 2. JRuby from Maven Central ------------------------------------------------------------------
nr_jruby() {
  local v=$NR_JRUBY_VERSION dl tmp
  if [ -x "$NR_JRUBY_HOME/bin/jruby" ]; then skip "JRuby $v: installed in .toolchain/jruby-$v"; return 0; fi
  step "fetching JRuby $v from Maven Central (org.jruby:jruby-dist:$v:tar.gz:bin)"
  dl=$NR_TC/.download
  mkdir -p "$dl"
  # Run from .toolchain/, away from the project's pom.xml (which may be mid-edit).
  (cd "$NR_TC" && JAVA_HOME=$NR_JAVA_HOME nr_mvn -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
    -Dartifact="org.jruby:jruby-dist:$v:tar.gz:bin" -DoutputDirectory="$dl") >&2 ||
    die "could not fetch org.jruby:jruby-dist:$v from Maven Central (see above)"
  # Unpack beside the final place, then move: an interrupted run leaves no half-installed JRuby.
  tmp=$(mktemp -d "$NR_TC/.jruby.XXXXXX")
  tar -xzf "$dl/jruby-dist-$v-bin.tar.gz" -C "$tmp"
  rm -rf "$NR_JRUBY_HOME"
  mv "$tmp/jruby-$v" "$NR_JRUBY_HOME"
  rm -rf "$tmp" "$dl"
}

# --- 3. the gem shim dir --------------------------------------------------------------------------
# Rebuilt when missing or when the recipe (the nr_shim_* functions below, comments aside), the
# JRuby version or Debian's set of gems changed.
nr_shim_recipe() {
  {
    echo "jruby $NR_JRUBY_VERSION java $NR_JAVA_HOME"
    declare -f nr_shim_vendor_ruby_gems nr_shim_websocket_driver nr_shim_concurrent_ruby nr_shim_rails_test_stubs \
      nr_shim_nio4r
    ls "$NR_DEB_GEMS/specifications" /usr/share/rubygems-integration/3.1.0/specifications \
      /usr/lib/*/rubygems-integration/*/specifications 2>/dev/null
  } | sha256sum | cut -d' ' -f1
}

nr_gem_shim() {
  local recipe tmp
  recipe=$(nr_shim_recipe)
  if [ "$(cat "$NR_SHIM/.recipe" 2>/dev/null)" = "$recipe" ]; then
    skip "gem shim: .toolchain/gems-$NR_JRUBY_VERSION is current"
    return 0
  fi
  step "building the gem shim .toolchain/gems-$NR_JRUBY_VERSION (Debian gems for JRuby)"
  tmp=$(mktemp -d "$NR_TC/.gems.XXXXXX")
  chmod 755 "$tmp"
  mkdir -p "$tmp/specifications" "$tmp/gems"
  nr_shim_vendor_ruby_gems "$tmp"
  nr_shim_websocket_driver "$tmp"
  nr_shim_concurrent_ruby "$tmp"
  nr_shim_rails_test_stubs "$tmp"
  nr_shim_nio4r "$tmp"
  echo "$recipe" >"$tmp/.recipe"
  rm -rf "$NR_SHIM"
  mv "$tmp" "$NR_SHIM"
  # First run also writes JRuby's AppCDS archive into its lib/ (why the JRuby dir stays writable).
  # shellcheck disable=SC2016
  JAVA_HOME=$NR_JAVA_HOME GEM_PATH=$NR_SHIM:$NR_DEB_GEMS "$NR_JRUBY_HOME/bin/jruby" -e \
    'require "rack"; $stderr.puts "==> ok: JRuby #{JRUBY_VERSION} (ruby #{RUBY_VERSION}) on Java #{ENV_JAVA["java.version"]}, rack #{Rack.release}"' ||
    die "JRuby $NR_JRUBY_VERSION cannot load rack through the gem shim"
}

# 3a. Debian gems whose code lives only in vendor_ruby (tilt, mail, sequel, multi_json, ...) get a
#     gem dir of symlinks each. (vendor_ruby itself must not go on RUBYLIB: it holds Debian's
#     rubygems.rb, which JRuby would then load.)
nr_shim_vendor_ruby_gems() {
  local out=$1 spec n pkg f rel
  for spec in "$NR_DEB_GEMS"/specifications/*.gemspec \
    /usr/share/rubygems-integration/3.1.0/specifications/websocket-driver-*.gemspec; do
    n=$(basename "$spec" .gemspec)
    [ -d "$NR_DEB_GEMS/gems/$n" ] && continue
    case $n in rubygems-update-*) continue ;; esac # JRuby ships its own rubygems
    pkg=$(dpkg -S "$spec" | head -1 | cut -d: -f1)
    dpkg -L "$pkg" | grep "^$NR_VENDOR_RUBY/" | while read -r f; do
      [ -f "$f" ] || continue
      rel=${f#"$NR_VENDOR_RUBY"/}
      mkdir -p "$out/gems/$n/lib/$(dirname "$rel")"
      ln -s "$f" "$out/gems/$n/lib/$rel"
    done
    cp "$spec" "$out/specifications/"
  done
}

# 3b. websocket-driver: Debian ships only the C mask extension; use a pure-Ruby mask on JRuby.
nr_shim_websocket_driver() {
  local w
  for w in "$1"/gems/websocket-driver-*; do
    rm "$w/lib/websocket/driver.rb"
    sed 's|if RUBY_PLATFORM =~ /java/|if false # nettyrack shim: pure-Ruby WebSocket::Mask|' \
      "$NR_VENDOR_RUBY/websocket/driver.rb" >"$w/lib/websocket/driver.rb"
    cat >"$w/lib/websocket_mask.rb" <<'EOF'
# nettyrack toolchain shim (script/lib/setup-jruby.sh): pure-Ruby stand-in for
# websocket-driver's native mask extension, which Debian builds for MRI only.
module WebSocket
  class Mask
    def self.mask(payload, mask)
      return payload if mask.nil? || mask.empty?
      key = mask.bytes
      out = payload.bytes
      out.each_index { |i| out[i] ^= key[i & 3] }
      out.pack("C*")
    end
  end
end
EOF
  done
}

# 3c. concurrent-ruby: Debian strips the JRuby jar but ships its Java source; compile it against
#     this JRuby (without it i18n, activesupport and Rails fail to load).
nr_shim_concurrent_ruby() {
  local out=$1 c n
  for c in "$NR_DEB_GEMS"/gems/concurrent-ruby-1.*; do
    n=$(basename "$c")
    cp -as "$c" "$out/gems/"
    cp "$NR_DEB_GEMS/specifications/$n.gemspec" "$out/specifications/"
    mkdir -p "$out/classes"
    # shellcheck disable=SC2046
    "$NR_JAVA_HOME/bin/javac" -nowarn -encoding UTF-8 -cp "$NR_JRUBY_HOME/lib/jruby.jar" -d "$out/classes" \
      $(find "$c/ext" -name '*.java') >"$out/javac.log" 2>&1 || { cat "$out/javac.log" >&2; die "javac failed on concurrent-ruby's Java extension"; }
    "$NR_JAVA_HOME/bin/jar" cf "$out/gems/$n/lib/concurrent-ruby/concurrent/concurrent_ruby.jar" -C "$out/classes" .
    rm -rf "$out/classes" "$out/javac.log"
  done
}

# 3d. TEST-HARNESS STUBS for Rails: rails-html-sanitizer and rails-dom-testing depend on nokogiri,
#     which has no JRuby build reachable here. Same name-version specs without nokogiri/loofah;
#     the sanitizer is a stub that raises if a view really sanitizes. Never ship these.
nr_shim_rails_test_stubs() {
  local out=$1 spec n
  for spec in "$NR_DEB_GEMS"/specifications/rails-html-sanitizer-*.gemspec \
    "$NR_DEB_GEMS"/specifications/rails-dom-testing-*.gemspec; do
    n=$(basename "$spec" .gemspec)
    grep -v -E 'nokogiri|loofah' "$spec" >"$out/specifications/$n.gemspec"
    case $n in
      rails-dom-testing-*) cp -as "$NR_DEB_GEMS/gems/$n" "$out/gems/" ;; # real code; needs nokogiri only if used
      rails-html-sanitizer-*)
        mkdir -p "$out/gems/$n/lib"
        cat >"$out/gems/$n/lib/rails-html-sanitizer.rb" <<'EOF'
# TEST-HARNESS STUB from nettyrack's script/lib/setup-jruby.sh (the real gem needs nokogiri,
# unavailable on JRuby here). ActionView requires this file when its helpers load; only
# sanitize/strip_tags etc. would use it.
require "set"
module Rails
  module Html
    class Sanitizer
      def self.full_sanitizer; FullSanitizer; end
      def self.link_sanitizer; LinkSanitizer; end
      def self.safe_list_sanitizer; SafeListSanitizer; end
      def self.white_list_sanitizer; SafeListSanitizer; end
      def sanitize(*) raise NotImplementedError, "rails-html-sanitizer is a stub on this JRuby setup"; end
    end
    class FullSanitizer < Sanitizer; end
    class LinkSanitizer < Sanitizer; end
    class SafeListSanitizer < Sanitizer
      class << self; attr_accessor :allowed_tags, :allowed_attributes; end
      self.allowed_tags = Set.new; self.allowed_attributes = Set.new
    end
    WhiteListSanitizer = SafeListSanitizer
  end
end
EOF
        ;;
    esac
  done
}

# 3e. nio4r (ActionCable's event loop): Debian ships it in its arch-specific gem dir, outside
#     GEM_PATH, with only the MRI C extension. Its pure-Ruby selector needs nothing native but must
#     be asked for (NIO4R_PURE=true; lib/nio.rb checks it before requiring nio4r_ext): link the
#     gem's Ruby code and copy its spec without `extensions` (nor the "# stub:" header lines that
#     repeat them), for which RubyGems and Bundler would otherwise find no build and ignore the gem
#     (and actioncable, which depends on it, with it).
nr_shim_nio4r() {
  local out=$1 g n
  for g in /usr/lib/*/rubygems-integration/*/gems/nio4r-*; do # Debian's arch-specific gem dir
    n=$(basename "$g")
    mkdir -p "$out/gems/$n"
    ln -s "$g/lib" "$out/gems/$n/lib"
    grep -v -e '\.extensions = ' -e '^# stub: ' "$(dirname "$(dirname "$g")")/specifications/$n.gemspec" >"$out/specifications/$n.gemspec"
  done
}

# --- the env file that script/server, script/test and users source ---------------------------------
nr_env_file_text() {
  local jb=$NR_JRUBY_HOME/bin
  cat <<EOF
# Written by script/bootstrap: the environment for JRuby $NR_JRUBY_VERSION on $NR_JAVA_NAME.
# Use it in a shell with:  . $NR_ENV_FILE
export NETTYRACK_JRUBY_VERSION=$NR_JRUBY_VERSION
export JAVA_HOME=$NR_JAVA_HOME
case ":\$PATH:" in *":$jb:"*) ;; *) export PATH="$jb:$NR_JAVA_HOME/bin:\$PATH" ;; esac
export GEM_PATH=$NR_SHIM:$NR_DEB_GEMS
export BUNDLE_SILENCE_ROOT_WARNING=1
unset GEM_HOME RUBYLIB
EOF
  if [ "$NR_GEMFILE" != "$NR_ROOT/Gemfile" ]; then
    echo "# Bundler for this JRuby, as script/test does: export BUNDLE_GEMFILE=$NR_GEMFILE"
  fi
}

nr_env_file() {
  local text
  text=$(nr_env_file_text)
  if [ "$(cat "$NR_ENV_FILE" 2>/dev/null)" = "$text" ]; then
    skip "env file: .toolchain/env-$NR_JRUBY_VERSION.sh"
    return 0
  fi
  step "writing .toolchain/env-$NR_JRUBY_VERSION.sh"
  printf '%s\n' "$text" >"$NR_ENV_FILE"
}
