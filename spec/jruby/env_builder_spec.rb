# frozen_string_literal: true

require_relative "bridge_helper"

# The env the bridge builds (org.nettyrack.jruby.EnvBuilder), where it needs the process: what a
# request sees over HTTP is the shared contract every door passes (spec/contract, env_contract.rb).
RSpec.describe "the Rack env" do
  it "spools large bodies to a temp file that is gone after the request" do
    inputs = Queue.new
    spooling = ->(env) { inputs << [env["rack.input"], env["rack.input"].read.bytesize]; [200, {}, []] }
    with_app(spooling, bodyBufferSize: 1024) do |port|
      Net::HTTP.start("127.0.0.1", port) do |http|
        expect(http.post("/big", "x" * 200_000).code).to eq("200")
        # A connection's requests are finished in order, so once the second is answered
        # the first one's body has been cleaned up.
        expect(http.get("/").code).to eq("200")
      end
      input, size = BridgeHelper.take(inputs, 5)
      expect(size).to eq(200_000)
      expect(input).to be_a(File)
      expect(File.exist?(input.path)).to be(false)
    end
  end
end

# A transport that mounts the app below the root (a servlet door passes its context path as
# RackRequest#scriptName): SCRIPT_NAME is that prefix of the path, PATH_INFO the rest.
RSpec.describe "the Rack env of an app mounted below the root" do
  # A RackRequest for GET +target+ with +script_name+, as a second transport would make it.
  def mounted_request(script_name, target, transport_env = {})
    values = {
      "method" => "GET", "target" => target, "scriptName" => script_name, "protocol" => "HTTP/1.1",
      "scheme" => "http", "remoteAddress" => "127.0.0.1", "remotePort" => 40_000, "localAddress" => "127.0.0.1",
      "localPort" => 8080, "body" => Java::OrgNettyrackCore::RequestBody::EMPTY,
      "upgrade" => Java::OrgNettyrackCore::Upgrade::NONE, "hijackable" => false, "connectProtocol" => nil,
      "requestId" => "mounted-1", "times" => Java::OrgNettyrackCore::RequestTimes.now,
      "toString" => "mounted request",
      "transportEnv" => java.util.HashMap.new(transport_env)
    }
    proxy(Java::OrgNettyrackCore::RackRequest) do |name, args|
      case name
      when "forEachHeader" then args[0].header("Host", "example.org")
      when "header" then args[0].casecmp?("host") ? "example.org" : nil
      when "headers" then java.util.ArrayList.new
      else values.fetch(name)
      end
    end
  end

  # A ResponseSink that keeps the status it was given (Rack::Lint's body streams: begin, write, end).
  def status_sink(statuses)
    state = { finished: false }
    proxy(Java::OrgNettyrackCore::ResponseSink) do |name, args|
      case name
      when "respond", "begin" then statuses << args[0]; state[:finished] = name == "respond"; nil
      when "write" then nil
      when "end" then state[:finished] = true; nil
      when "committed", "finished" then state[:finished]
      when "honoursSendfile", "acceptsEarlyHints" then false
      when "toString" then "status sink"
      else raise "unexpected #{name}"
      end
    end
  end

  def proxy(interface, &answer)
    handler = ->(_proxy, method, args) { answer.call(method.name, args ? args.to_a : []) }
    java.lang.reflect.Proxy.new_proxy_instance(JRuby.runtime.jruby_class_loader, [interface.java_class].to_java(java.lang.Class),
                                               handler)
  end

  def env_for(script_name, target, transport_env = {}, keys: %w[SCRIPT_NAME PATH_INFO QUERY_STRING REQUEST_URI])
    seen = Queue.new
    app = Rack::Lint.new(lambda do |env|
      seen << env
      [200, { "content-type" => "text/plain" }, ["ok"]]
    end)
    bridge = Java::OrgNettyrackJruby::RackBridge.new(app, StringIO.new, false, Java::OrgNettyrackCorePush::LocalPubSub.new)
    statuses = []
    bridge.handle(mounted_request(script_name, target, transport_env), status_sink(statuses))
    expect(statuses).to eq([200]), "Rack::Lint accepted the env"
    BridgeHelper.take(seen, 1).values_at(*keys)
  end

  it "adds the transport's own objects as they are (a servlet door's java.servlet_request)" do
    request = java.util.ArrayList.new(["the servlet request"])
    seen, = env_for("/app", "/app/x", { "java.servlet_request" => request }, keys: ["java.servlet_request"])
    expect(seen).to be(request)
  end

  it "splits the path into SCRIPT_NAME and PATH_INFO" do
    expect(env_for("/app", "/app/a/b%20c?x=1")).to eq(["/app", "/a/b%20c", "x=1", "/app/a/b%20c?x=1"])
  end

  it "gives an empty PATH_INFO at the mount point itself, and / just below it" do
    expect(env_for("/app", "/app")).to eq(["/app", "", "", "/app"])
    expect(env_for("/app", "/app/?q")).to eq(["/app", "/", "q", "/app/?q"])
  end

  it "reads the path of an absolute-form target, and a mount point spelled with a trailing slash" do
    expect(env_for("/shop/", "http://example.org/shop/cart")).to eq(["/shop", "/cart", "", "http://example.org/shop/cart"])
  end

  it "keeps the query of an absolute-form target without a path (the path is then /)" do
    expect(env_for("", "http://example.org?x=1")).to eq(["", "/", "x=1", "http://example.org?x=1"])
    expect(env_for("", "https://example.org:8443#top")).to eq(["", "/", "", "https://example.org:8443#top"])
    expect(env_for("", "http://example.org/a?b#c")).to eq(["", "/a", "b", "http://example.org/a?b#c"])
  end

  it "never splits inside a path segment: a path outside the mount point stays whole" do
    expect(env_for("/app", "/application/x")).to eq(["", "/application/x", "", "/application/x"])
  end
end
