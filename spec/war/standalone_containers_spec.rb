# frozen_string_literal: true

require "fileutils"
require "socket"
require "tmpdir"

# WARs from `nettyrack war` in the servlet containers people download (StandaloneContainer:
# Jetty 12 and Tomcat 10.1 and 11 from Maven Central, as script/bootstrap installs them), not
# the JUnit tests' embedded ones: examples/hello (a plain Rack app) at /hello and examples/chat
# (push: a WebSocket chat, followed over SSE) at /chat, both built once and deployed together
# in each container in turn. Each container must answer HTTP and SSE; WebSocket where it has
# WebSocket support, else a 501 and one line per web app in its log; deploy without a warning
# (no class found in two jars); and on SIGTERM give open connections on_shutdown, then a 1001
# close or the end of the stream, again without a warning.
RSpec.describe "WARs in standalone Jetty and Tomcat" do
  include WarHelpers

  NO_WEBSOCKET = "nettyrack: this container has no Jakarta WebSocket support"

  before(:context) do
    raise "no containers in #{StandaloneContainer::HOME}: run script/bootstrap" unless StandaloneContainer.installed?

    @dir = Dir.mktmpdir("war-containers")
    @wars = %w[hello chat].map do |name|
      war = File.join(@dir, "#{name}.war")
      status, stdout, stderr = nettyrack_war("examples/#{name}", "-o", war)
      raise "nettyrack war examples/#{name} failed (#{status}): #{stdout}#{stderr}" unless status.zero?

      war
    end
  end

  after(:context) { FileUtils.rm_rf(@dir) if @dir }

  {
    "Jetty 12 with only server, http and ee10-deploy" => [->(dir) { StandaloneContainer.jetty(%w[server http ee10-deploy], dir) }, false],
    "Jetty 12 with ee10-websocket-jakarta" => [->(dir) { StandaloneContainer.jetty(%w[server http ee10-deploy ee10-websocket-jakarta], dir) }, true],
    "Tomcat 10.1" => [->(dir) { StandaloneContainer.tomcat("10.1", dir) }, true],
    "Tomcat 11" => [->(dir) { StandaloneContainer.tomcat("11", dir) }, true]
  }.each do |name, (make, websocket)|
    it "serves both WARs in #{name}, #{websocket ? 'WebSocket included' : 'WebSocket answered 501'}; SIGTERM ends push cleanly" do
      container = make.call(File.join(@dir, name.tr("^A-Za-z0-9", "_")))
      aggregate_failures do
        base = "http://127.0.0.1:#{container.start(@wars).port}"
        expect(fetch("#{base}/hello/", timeout: 60).body).to start_with("Hello from nettyrack on jruby")
        expect(fetch("#{base}/chat/chat.js", timeout: 60).body).to include("new WebSocket")

        follower = SseSocket.open(container.port, "/chat/chat")
        expect(follower.read_until("* following the chat")).to include("data: * following the chat")
        expect(post("#{base}/chat/say?nick=ops", "hello from curl", timeout: 60).code).to eq("204")
        expect(follower.read_until("ops: hello from curl")).to include("data: ops: hello from curl")

        member = nil
        if websocket
          member = WsClient.open(container.port, "/chat/chat?nick=ann", timeout: 30)
          expect(member.read_message(timeout: 30)).to eq([:text, "* ann joined"])
          expect(follower.read_until("* ann joined")).to include("data: * ann joined")
        else
          expect { WsClient.open(container.port, "/chat/chat?nick=ann", timeout: 30) }
            .to raise_error(%r{WebSocket handshake failed:\nHTTP/1\.1 501 })
        end

        deployed = container.log
        expect(deployed.scan(NO_WEBSOCKET).size).to eq(websocket ? 0 : 2), deployed
        expect(container.warnings).to eq([])
        expect(deployed).not_to include("scanned from multiple locations")

        container.stop
        if member
          messages, code = member.read_until_close(timeout: 30)
          expect([messages.last, code]).to eq(["* the server is going away", 1001])
        end
        expect(follower.read_to_end).to include("data: * the server is going away")
        expect(container.warnings).to eq([]) # none at the stop either
      ensure
        member&.close
        follower&.close
        container.kill
      end
    end
  end

  it "fails the deployment with one line when the WAR's JRuby needs a newer Java than the container's" do
    java17 = java17_or_skip
    container = StandaloneContainer.jetty(%w[server http ee10-deploy], File.join(@dir, "java17"), java: java17)
    container.start(@wars.first(1))
    expect(fetch("http://127.0.0.1:#{container.port}/hello/", timeout: 60).code).to eq("503")
    expect(container.log).to include("nettyrack: cannot boot the Rack app of /hello: this WAR's JRuby needs a newer Java than 17 (")
  ensure
    container&.kill
  end
end
