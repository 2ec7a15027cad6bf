# frozen_string_literal: true

require "json"
require "rack"
require "rack/handler"
require "socket"
require "timeout"
require "tmpdir"
require "net/http"

# `rackup -s nettyrack` on Rack 2: Rack::Handler finds lib/rack/handler/nettyrack.rb by name.
RSpec.describe "Rack::Handler::Nettyrack" do
  let(:handler) { Rack::Handler.get(:nettyrack) }
  let(:app) do
    lambda do |env|
      raise ArgumentError, "secret detail" if env["PATH_INFO"] == "/boom"

      [200, { "content-type" => "text/plain" }, ["handled #{env['PATH_INFO']}"]]
    end
  end

  it "is what Rack::Handler.get finds for nettyrack" do
    expect(handler.name).to eq("Rack::Handler::Nettyrack")
    expect(Rack::Handler.get("nettyrack")).to be(handler)
    expect(handler.singleton_class).to include(Nettyrack::RackHandler)
  end

  it "serves with rackup's options, yields the server, prints its boot line, and stops on #shutdown" do
    seen = nil
    result = nil
    boot = %r{\Anettyrack .*, 2 threads\) listening on http://127\.0\.0\.1:\d+\nnettyrack: shutting down \(shutdown\)\n\z}
    expect do
      result = run_handler(app, stop: "#shutdown", Host: "127.0.0.1", Port: "0", Threads: "1:2", environment: "production") do |server|
        url = server.urls.first
        seen = [server.configuration.threads, fetch("#{url}/x").body, fetch("#{url}/boom").body]
        handler.shutdown
      end
    end.to output(boot).to_stdout
      .and output(/Error handling GET \/boom: ArgumentError: secret detail/).to_stderr
    expect(seen[0, 2]).to eq([[1, 2], "handled /x"])
    expect(seen[2]).not_to include("secret detail")
    expect(result.running?).to be(false)
  end

  it "takes limits as -O options, shows exception details in development, and stops on SIGINT" do
    previous = Signal.trap("INT") { :rspec }
    expect do
      run_handler(app, stop: "SIGINT", Host: "127.0.0.1", Port: 0, max_body_size: "1k", environment: "development",
                  Quiet: true) do |server|
        expect(server.configuration.limits[:max_body_size]).to eq(1024)
        expect(fetch("#{server.urls.first}/boom").body).to include("secret detail")
        Process.kill("INT", Process.pid)
      end
    end.to output("").to_stdout.and output(/secret detail/).to_stderr
    expect(Signal.trap("INT", "DEFAULT").call).to eq(:rspec)
  ensure
    Signal.trap("INT", previous || "DEFAULT")
  end

  it "answers SIGUSR1, SIGUSR2 and SIGHUP with a line each and keeps serving, as no signal of Puma's ends it" do
    still = nil
    expect do
      run_handler(app, stop: "#shutdown", Host: "127.0.0.1", Port: 0, Quiet: true) do |server|
        Process.kill("HUP", Process.pid)
        %w[USR1 USR2].each { |signal| Process.kill(signal, Process.pid) }
        # The handler takes orders once this block returns; $stdout and $stderr are the matchers' StringIOs.
        still = Thread.new do
          Deadline.wait_until(timeout: 30) { $stdout.string.include?("SIGHUP") && $stderr.string.scan("hot restart needs").size == 2 }
          fetch("#{server.urls.first}/still").body
        ensure
          handler.shutdown
        end
      end
    end.to output(/\Anettyrack: SIGHUP: nothing to reopen or reload \(no log files, no ssl:\/\/ listeners\)\n\z/).to_stdout
      .and output(/(?=.*nettyrack: SIGUSR1: hot restart needs the nettyrack command)(?=.*nettyrack: SIGUSR2: hot restart needs)/m).to_stderr
    expect(Deadline.value(still, 10, "the request after the signals")).to eq("handled /still")
  end

  it "takes -O proxy_protocol: the PROXY header's address becomes REMOTE_ADDR, and the boot line says so" do
    remote = ->(env) { [200, { "content-type" => "text/plain" }, [env["REMOTE_ADDR"]]] }
    reply = nil
    expect do
      run_handler(remote, stop: "#shutdown", Host: "127.0.0.1", Port: 0, proxy_protocol: "true") do |server|
        reply = proxied_get(server.port, "PROXY TCP4 192.0.2.7 127.0.0.1 5000 80\r\n")
        handler.shutdown
      end
    end.to output(/threads, PROXY protocol\) listening on/).to_stdout
    expect(reply).to start_with("HTTP/1.1 200 OK").and end_with("\r\n\r\n192.0.2.7")
  end

  it "takes -O public_dir and early_hints=false: the file is answered without the app, and no 103 is offered" do
    Dir.mktmpdir("nettyrack-handler-public") do |dir|
      File.write(File.join(dir, "robots.txt"), "User-agent: *\n")
      app = ->(env) { [200, { "content-type" => "text/plain" }, ["app, hints #{env.key?('rack.early_hints')}"]] }
      replies = nil
      expect do
        run_handler(app, stop: "#shutdown", Host: "127.0.0.1", Port: 0, public_dir: dir, "early_hints" => "false") do |server|
          replies = %w[/robots.txt /other].map { |path| Net::HTTP.get(URI("http://127.0.0.1:#{server.port}#{path}")) }
          handler.shutdown
        end
      end.to output(/public files from #{Regexp.escape(dir)}\) listening on/).to_stdout
      expect(replies).to eq(["User-agent: *\n", "app, hints false"])
    end
  end

  # handler.run blocks until an order to stop arrives. Run in a thread with a deadline, a stop
  # that never comes fails the example instead of hanging the suite.
  def run_handler(app, stop:, **options, &block)
    runner = Thread.new do
      Thread.current.report_on_exception = false # Deadline.value raises it in the example
      handler.run(app, **options, &block)
    end
    Deadline.value(runner, 60, "handler.run until #{stop}")
  ensure
    if runner&.alive? # given up on: stop the server it left running
      handler.shutdown
      runner.join(10)
    end
  end

  def proxied_get(port, header)
    TCPSocket.open("127.0.0.1", port) do |socket|
      socket.write("#{header}GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      Timeout.timeout(10) { socket.read }
    end
  end

  it "lists what -O accepts for rackup -h" do
    expect(handler.valid_options.keys).to include("Host=HOST", "Port=PORT", "Threads=MIN:MAX", "Quiet", "pubsub=URL", "proxy_protocol", "http2=BOOL",
                                                  "control_url=URL", "control_token=TOKEN", "no_control_token",
                                                  "public_dir=DIR", "early_hints=false", "sendfile",
                                                  "max_body_size=BYTES", "header_timeout=SECONDS", "control_timeout=SECONDS")
  end

  it "takes -O pubsub=URL: pub/sub goes through that Redis while it serves, and names it on the boot line",
     if: RedisServer.available? do
    redis = RedisServer.start
    pubsub_app = Rack::Builder.parse_file(File.expand_path("../fixtures/pubsub.ru", __dir__))
    pubsub_app = pubsub_app.first if pubsub_app.is_a?(Array) # Rack 2 returns [app, options]
    before = Nettyrack.pubsub
    received = nil
    expect do
      run_handler(pubsub_app, stop: "#shutdown", Host: "127.0.0.1", Port: 0, pubsub: redis.url) do |server|
        port = server.port
        ws = WsClient.open(port, "/ws?channel=news")
        expect(ws.read_message).to eq([:text, "subscribed"])
        limit = Deadline.now + 20
        IO.select(nil, nil, nil, 0.05) until redis.subscribers("news") == 1 || Deadline.now > limit
        expect(post("http://127.0.0.1:#{port}/publish?channel=news", "through Redis").code).to eq("204")
        received = ws.read_message
        ws.close
        handler.shutdown
      end
    end.to output(%r{threads, pub/sub #{Regexp.escape(redis.url)}\) listening on}).to_stdout
    expect(received).to eq([:text, "through Redis"])
    expect(Nettyrack.pubsub).to be(before)
    limit = Deadline.now + 20
    IO.select(nil, nil, nil, 0.05) until redis.subscribers("news").zero? || Deadline.now > limit
    expect(redis.subscribers("news")).to eq(0) # the engine closed with the server
  ensure
    redis&.stop
  end

  it "takes -O control_url and control_token, and stops on the control endpoint's POST /stop" do
    stats = nil
    expect do
      run_handler(app, stop: "POST /stop", Host: "127.0.0.1", Port: 0, "control_url" => "tcp://127.0.0.1:0",
                  "control_token" => "s3cret") do |server|
        control = "http://#{server.control_url.delete_prefix('tcp://')}"
        stats = fetch("#{control}/stats?token=s3cret")
        expect(post("#{control}/stop?token=s3cret", "").code).to eq("200")
      end
    end.to output(%r{listening on .*\nnettyrack: control endpoint on tcp://127\.0\.0\.1:\d+ \(token as configured\)\n.*\(control /stop\)\n\z}m)
      .to_stdout
    expect([stats.code, JSON.parse(stats.body)["requests"]["total"]]).to eq(["200", 0])
  end

  it "takes -O no_control_token" do
    code = nil
    expect do
      run_handler(app, stop: "#shutdown", Host: "127.0.0.1", Port: 0, control_url: "tcp://127.0.0.1:0",
                  no_control_token: "true") do |server|
        code = fetch("http://#{server.control_url.delete_prefix('tcp://')}/stats").code
        handler.shutdown
      end
    end.to output(/\(no token: anyone who can connect may stop the server\)/).to_stdout
    expect(code).to eq("200")
  end

  it "refuses a pubsub option that is not a Redis URL before it binds" do
    expect { run_handler(app, stop: "its ConfigError", Host: "127.0.0.1", Port: 0, pubsub: "memcached://h") }
      .to raise_error(Nettyrack::ConfigError, /"memcached:\/\/h" is not a pub\/sub engine/)
  end
end
