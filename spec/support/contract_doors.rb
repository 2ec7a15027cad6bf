# frozen_string_literal: true

require "fileutils"
require "tmpdir"
require_relative "nettyrack_process"
require_relative "war_helpers"

# The doors the Rack contract specs (spec/contract) run against, each serving
# spec/fixtures/contract_app with the same LIMITS (and a push history), started once per spec file:
#   netty   bin/nettyrack with the limits as CLI flags and --sendfile (x-sendfile honoured), at
#           the root (SCRIPT_NAME "")
#   jetty   the WAR `nettyrack war` builds from the app (limits in its config/warble.rb), deployed
#   tomcat  at /shop in embedded Jetty 12 ee10 or Tomcat 11 by org.nettyrack.servlet.ServeWar, the
#           JUnit tests' own containers (src/test), run on the test class path Maven resolves
# The WAR and the class path are made once per RSpec run, under target/contract.
module ContractDoors
  ROOT = File.expand_path("../..", __dir__)
  APP = File.join(ROOT, "spec/fixtures/contract_app")
  WORK = File.join(ROOT, "target/contract")
  CONTEXT = "/shop"
  # Where each door serves its metrics (the Netty door: --metrics-url on port 0, said in its boot line).
  METRICS_PATH = "/nettyrack/metrics"
  METRICS_TOKEN = "contract-metrics-token"
  LIMITS = { "max-uri-length" => 1024, "max-header-size" => 2048, "max-headers" => 20, "max-body-size" => 10_000,
             "push-history" => 3 }.freeze
  # Jetty 12 needs SLF4J 2; the test class path has Jedis' 1.7 (pom.xml's Surefire setup swaps them too).
  SLF4J = %w[org.slf4j:slf4j-api:2.0.18 org.slf4j:slf4j-nop:2.0.18].freeze
  BOOT_TIMEOUT = 240

  # One running door: where to reach it and what it is.
  class Door
    attr_reader :kind, :port, :script_name, :metrics

    def initialize(kind, command, env = {})
      @kind = kind
      @command = command
      @env = env
    end

    def container? = kind != :netty

    def start
      @child = NettyrackProcess.new(*@command.drop(1), command: [@command.first], chdir: ROOT,
                                                       env: @env)
      url = @child.stdout_match(%r{(?:listening on|serving) http://127\.0\.0\.1:(\d+)(/\S*)?}, timeout: BOOT_TIMEOUT)
      @port = Integer(url[1])
      @script_name = url[2].to_s.chomp("/")
      @metrics = if container?
                   ["http://127.0.0.1:#{@port}#{@script_name}#{METRICS_PATH}", { "Authorization" => "Bearer #{METRICS_TOKEN}" }]
                 else
                   ["http://#{@child.stdout_match(%r{metrics on tcp://(127\.0\.0\.1:\d+)/metrics})[1]}/metrics", {}]
                 end
      self
    end

    # The match of +pattern+ in what the door logs (its stderr), once it appears.
    def log_match(pattern, timeout: 30) = @child.stderr_match(pattern, timeout: timeout)

    def stop
      return unless @child

      @child.signal("TERM")
      @child.wait(timeout: 60)
    ensure
      @child&.kill
    end
  end

  module_function

  def door(kind)
    case kind
    when :netty
      flags = LIMITS.flat_map { |name, value| ["--#{name}", value.to_s] }
      Door.new(:netty, [RbConfig.ruby, NettyrackProcess::BIN, "-b", "tcp://127.0.0.1:0", "-t", "2:4",
                        "--metrics-url", "tcp://127.0.0.1:0",
                        "-e", "production", "--sendfile", *flags, File.join(APP, "config.ru")])
    when :jetty, :tomcat
      java = File.join(ENV_JAVA["java.home"], "bin", "java")
      Door.new(kind, [java, *WarHelpers::QUICK_JVM, "-Djava.io.tmpdir=#{tmpdir(kind)}", "-cp", classpath,
                      "org.nettyrack.servlet.ServeWar", kind.to_s, war, CONTEXT], WarHelpers::OUTSIDE_BUNDLER)
    end
  end

  def tmpdir(kind)
    File.join(WORK, "tmp-#{kind}").tap { |dir| FileUtils.rm_rf(dir) && FileUtils.mkdir_p(dir) }
  end

  # The WAR of the contract app, with LIMITS as context params (config.webxml in config/warble.rb).
  def war
    @war ||= begin
      app = File.join(WORK, "app")
      FileUtils.rm_rf(app)
      FileUtils.mkdir_p(File.join(app, "config"))
      FileUtils.cp_r(Dir[File.join(APP, "*")], app)
      war_only = { "metrics-path" => METRICS_PATH, "metrics-token" => METRICS_TOKEN }
      params = LIMITS.merge(war_only).map { |name, value| "  config.webxml[#{name.inspect}] = #{value.inspect}\n" }.join
      File.write(File.join(app, "config/warble.rb"), "Warbler::Config.new do |config|\n#{params}end\n")
      path = File.join(WORK, "contract.war")
      status, out, err = Object.new.extend(WarHelpers).nettyrack_war(app, "-o", path)
      raise "nettyrack war failed (#{status}): #{out}#{err}" unless status.zero?

      path
    end
  end

  # target/test-classes (compiled if stale) and the test-scope jars, SLF4J 2 instead of 1.7 and
  # without the provided ones (JRuby, the servlet API): the containers bring their API, the WAR its JRuby.
  def classpath
    @classpath ||= begin
      file = File.join(WORK, "test.classpath")
      mvn = ["nr_mvn -q test-compile dependency:build-classpath -Dmdep.includeScope=test",
             "-Dmdep.excludeScope=provided -Dmdep.excludeArtifactIds=slf4j-api,slf4j-nop -Dmdep.outputFile=#{file}",
             *SLF4J.map { |artifact| "&& nr_mvn -q dependency:copy -Dartifact=#{artifact} -DoutputDirectory=#{WORK}/slf4j" }]
      script = ". script/lib/toolchain.sh && #{mvn.join(' ')}"
      # Maven can wait on a repository for ever: `timeout` ends it (and its children) after 15 min.
      system(WarHelpers::OUTSIDE_BUNDLER, "timeout", "900", "bash", "-c", script, chdir: ROOT, out: File::NULL, exception: true)
      # Maven's excludeArtifactIds leaves Jedis' SLF4J 1.7 in: dropped here, or Jetty's WebSocket
      # code fails without a word (a 101, then no frame and no callback).
      jars = File.read(file).strip.split(":").reject { |jar| File.basename(jar).start_with?("slf4j-") }
      [File.join(ROOT, "target/test-classes"), *jars, *Dir[File.join(WORK, "slf4j/*.jar")]].join(":")
    end
  end
end

# For the contract's examples: requests to the door under test (@door, set by the spec file's
# before(:context)), paths given below its SCRIPT_NAME.
module ContractRequests
  def target(path) = "#{@door.script_name}#{path}"

  def get(path, headers = {})
    Net::HTTP.start("127.0.0.1", @door.port, open_timeout: 10, read_timeout: 30) { |http| http.get(target(path), headers) }
  end

  def post(path, body, headers = {})
    Net::HTTP.start("127.0.0.1", @door.port, open_timeout: 10, read_timeout: 30) do |http|
      http.post(target(path), body, headers)
    end
  end

  def env_at(path, headers = {})
    response = get(path, headers)
    expect(response.code).to eq("200"), response.body
    JSON.parse(response.body)
  end

  # Sends raw bytes and returns what the door wrote back: everything up to the end of the
  # connection (the write side half-closed), or, with +upto+, up to that pattern on a
  # connection left open; bounded by +timeout+ seconds either way.
  def raw(data, upto: nil, timeout: 10)
    socket = TCPSocket.new("127.0.0.1", @door.port)
    socket.write(data)
    socket.close_write unless upto
    out = +""
    limit = Deadline.now + timeout
    nil while !(upto && out.match?(upto)) && Deadline.read_some(socket, out, limit)
    out
  ensure
    socket&.close
  end

  def calls = Integer(get("/calls").body)
end

# The whole contract against one door (:netty, :jetty or :tomcat), booted once for all of it:
# what each of spec/contract/*_door_spec.rb runs.
RSpec.shared_examples "the whole Rack contract" do |kind|
  include ContractRequests

  before(:context) { @door = ContractDoors.door(kind).start }
  after(:context) { @door&.stop }

  it_behaves_like "the Rack env contract"
  it_behaves_like "the response body contract"
  it_behaves_like "the file body contract"
  it_behaves_like "the push contract"
  it_behaves_like "the hijack contract"
  it_behaves_like "the early hints contract"
  it_behaves_like "the app error contract"
  it_behaves_like "the bad input contract"
  it_behaves_like "the metrics contract"
end
