# shellcheck shell=bash
# Sourced by script/bootstrap (after toolchain.sh). The standalone servlet containers that
# spec/war/standalone_containers_spec.rb deploys nettyrack WARs into, as a person downloads them,
# from Maven Central, each unpacked into .toolchain/containers/<name>:
#   jetty-home-12.1.6   org.eclipse.jetty:jetty-home (the spec makes its Jetty bases from it)
#   tomcat-10.1.59      org.apache.tomcat:tomcat (Servlet 6.0)
#   tomcat-11.0.25      org.apache.tomcat:tomcat (Servlet 6.1)
# The same versions as the embedded ones of the JUnit tests (pom.xml). An installed one has a
# .complete stamp; an interrupted unpack leaves none, and the next run does it again.

NR_CONTAINERS_DIR=$NR_TC/containers
NR_CONTAINERS="org.eclipse.jetty:jetty-home:12.1.6 org.apache.tomcat:tomcat:10.1.59 org.apache.tomcat:tomcat:11.0.25"

nr_container() {
  local coordinate=$1 artifact version name dl tmp
  artifact=$(cut -d: -f2 <<<"$coordinate")
  version=$(cut -d: -f3 <<<"$coordinate")
  name=$artifact-$version
  if [ -f "$NR_CONTAINERS_DIR/$name/.complete" ]; then
    skip "containers: .toolchain/containers/$name is installed"
    return 0
  fi
  step "fetching $name from Maven Central ($coordinate:tar.gz) -> .toolchain/containers/$name"
  dl=$NR_TC/.download-containers
  mkdir -p "$dl" "$NR_CONTAINERS_DIR"
  # Run from .toolchain/, away from the project's pom.xml (which may be mid-edit).
  (cd "$NR_TC" && JAVA_HOME=$NR_JAVA_HOME nr_mvn -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
    -Dartifact="$coordinate:tar.gz" -DoutputDirectory="$dl") >&2 </dev/null ||
    die "could not fetch $coordinate:tar.gz from Maven Central (see above)"
  tmp=$(mktemp -d "$NR_CONTAINERS_DIR/.unpack.XXXXXX")
  tar -xzf "$dl/$name.tar.gz" -C "$tmp" || die "could not unpack $dl/$name.tar.gz"
  # The archives hold one directory: jetty-home-12.1.6/, apache-tomcat-11.0.25/.
  local top=("$tmp"/*)
  [ ${#top[@]} -eq 1 ] && [ -d "${top[0]}" ] || die "$name.tar.gz does not hold one directory"
  rm -rf "${NR_CONTAINERS_DIR:?}/$name"
  mv "${top[0]}" "$NR_CONTAINERS_DIR/$name"
  touch "$NR_CONTAINERS_DIR/$name/.complete"
  rm -rf "$tmp" "$dl/$name.tar.gz"
}

nr_containers() {
  local coordinate
  rm -rf "$NR_CONTAINERS_DIR"/.unpack.* # left by an interrupted run
  for coordinate in $NR_CONTAINERS; do nr_container "$coordinate"; done
}
