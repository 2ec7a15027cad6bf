# frozen_string_literal: true

require "fileutils"
require "java"
require_relative "nettyrack_process"
require_relative "war_helpers"

# A servlet container from .toolchain/containers (script/bootstrap fetches them from Maven
# Central) running WARs as a person runs it, for spec/war/standalone_containers_spec.rb: a base
# of its own under +dir+ (Jetty: a jetty.base made by start.jar --add-modules; Tomcat: a
# CATALINA_BASE with the distribution's conf/), the WARs copied into its webapps/, HTTP on
# 127.0.0.1 at a port the container picks (port 0), in the foreground on this JVM's java, and
# stopped with SIGTERM by its pid (#kill, in an ensure, ends one a spec gave up on).
#
#   container = StandaloneContainer.jetty(%w[server http ee10-deploy], dir).start(wars)
#   container.port; container.log; container.stop  # => the exit status
class StandaloneContainer
  HOME = File.expand_path("../../.toolchain/containers", __dir__)
  JETTY = "jetty-home-12.1.6"
  TOMCATS = { "10.1" => "tomcat-10.1.59", "11" => "tomcat-11.0.25" }.freeze
  JAVA = File.join(ENV_JAVA["java.home"], "bin", "java")
  # The WAR's JRuby starts quicker (as `java -jar` in the WAR specs); native access is for
  # Java 22+, which warns on stderr otherwise.
  JVM_FLAGS = [*WarHelpers::QUICK_JVM, *(ENV_JAVA["java.specification.version"].to_i >= 22 ? ["--enable-native-access=ALL-UNNAMED"] : [])].freeze
  BOOT_TIMEOUT = 240

  attr_reader :name, :port

  # java: another JVM's java (its JVM_FLAGS then left out).
  def self.jetty(modules, dir, java: JAVA)
    new("Jetty 12 (#{modules.join(',')})", dir, kind: :jetty, modules: modules, java: java)
  end

  def self.tomcat(version, dir)
    new("Tomcat #{version}", dir, kind: :tomcat, home: TOMCATS.fetch(version))
  end

  def self.installed?
    [JETTY, *TOMCATS.values].all? { |name| File.file?(File.join(HOME, name, ".complete")) }
  end

  def initialize(name, dir, kind:, modules: nil, home: JETTY, java: JAVA)
    @java = java
    @flags = java == JAVA ? JVM_FLAGS : []
    @name = name
    @dir = dir
    @kind = kind
    @modules = modules
    @home = File.join(HOME, home)
  end

  def jetty? = @kind == :jetty

  # Lays out the base, deploys the WARs and waits until the container listens (it deploys its
  # web apps first); returns self.
  def start(wars)
    FileUtils.mkdir_p(File.join(@dir, "webapps"))
    jetty? ? jetty_base : tomcat_base
    wars.each { |war| FileUtils.cp(war, File.join(@dir, "webapps")) }
    @child = jetty? ? start_jetty : start_tomcat
    @port = Integer(@child.stderr_match(listening, timeout: BOOT_TIMEOUT)[1])
    self
  end

  # What the container wrote so far: its console and, for Tomcat, its log files (a web app's
  # ServletContext#log goes to logs/localhost.*.log there).
  def log
    files = Dir[File.join(@dir, "logs", "*.log")].sort.map { |file| File.read(file) }
    [@child.stdout, @child.raw_stderr, *files].join
  end

  # The log's warnings and errors.
  def warnings
    log.lines.grep(jetty? ? /:(?:WARN|ERROR)\s*:/ : / (?:WARNING|SEVERE) \[/)
  end

  # SIGTERM, then the exit status (Tomcat ends with 143: catalina.sh runs java with exec).
  def stop(timeout: 90)
    @child.signal("TERM")
    @child.wait(timeout: timeout)
  end

  def kill
    @child&.kill
  end

  private

  def listening
    jetty? ? /Started oejs\.ServerConnector@\S+\{HTTP\/1\.1, \(http\/1\.1\)\}\{127\.0\.0\.1:(\d+)\}/ : /Starting ProtocolHandler \["http-nio-127\.0\.0\.1-auto-\d+-(\d+)"\]/
  end

  def jetty_base
    FileUtils.mkdir_p(File.join(@dir, "work")) # Jetty unpacks WARs there instead of /tmp
    made = NettyrackProcess.new("-jar", File.join(@home, "start.jar"), "jetty.home=#{@home}", "jetty.base=#{@dir}",
                                "--add-modules=#{@modules.join(',')}", command: [@java], chdir: @dir,
                                                                       env: WarHelpers::OUTSIDE_BUNDLER)
    status = made.wait(timeout: 120)
    raise "jetty --add-modules failed: #{made.stdout}#{made.raw_stderr}" unless status.success?
  ensure
    made&.kill
  end

  def start_jetty
    NettyrackProcess.new(*@flags, "-Djava.io.tmpdir=#{File.join(@dir, 'work')}", "-jar", File.join(@home, "start.jar"),
                         "jetty.home=#{@home}", "jetty.base=#{@dir}", "jetty.http.host=127.0.0.1", "jetty.http.port=0",
                         command: [@java], chdir: @dir, env: WarHelpers::OUTSIDE_BUNDLER)
  end

  # The distribution's conf/ with the shutdown port off and the HTTP connector on 127.0.0.1:0.
  def tomcat_base
    %w[logs temp work].each { |sub| FileUtils.mkdir_p(File.join(@dir, sub)) }
    FileUtils.cp_r(File.join(@home, "conf"), @dir)
    server = File.join(@dir, "conf", "server.xml")
    xml = File.read(server)
    xml = xml.sub('<Server port="8005"', '<Server port="-1"')
             .sub(/<Connector port="8080" protocol="HTTP\/1\.1"/, '<Connector port="0" address="127.0.0.1" protocol="HTTP/1.1"')
    raise "unexpected #{server}: no shutdown port or HTTP connector to set" unless xml.include?('port="-1"') && xml.include?('port="0"')

    File.write(server, xml)
  end

  def start_tomcat
    env = WarHelpers::OUTSIDE_BUNDLER.merge("CATALINA_HOME" => @home, "CATALINA_BASE" => @dir,
                                            "JAVA_HOME" => ENV_JAVA["java.home"], "CATALINA_PID" => nil,
                                            "CATALINA_OPTS" => JVM_FLAGS.join(" "), "JAVA_OPTS" => nil)
    NettyrackProcess.new("run", command: [File.join(@home, "bin", "catalina.sh")], chdir: @dir, env: env)
  end
end
