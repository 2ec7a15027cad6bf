# frozen_string_literal: true

require "open3"
require "timeout"

# HTTP/2 over cleartext (h2c) with real clients against a Nettyrack::Server and a Rack app:
# curl by prior knowledge and by Upgrade: h2c, h2load (nghttp2) for many streams on many
# connections, httpx (Python, h2) for concurrent streams on one connection and SSE. Each stream
# is one Rack request; only the env's SERVER_PROTOCOL tells the app it came over HTTP/2.
RSpec.describe "HTTP/2 over cleartext" do
  include PushServerHelpers

  let(:echo) do
    lambda do |env|
      body = env["rack.input"].read
      [200, { "content-type" => "text/plain" },
       ["#{env['SERVER_PROTOCOL']} #{env['REQUEST_METHOD']} #{env['PATH_INFO']} #{env['HTTP_HOST']} #{body}"]]
    end
  end

  def curl(*args)
    out, err, status = Open3.capture3("curl", "-sS", "--max-time", "20", *args)
    raise "curl #{args.join(' ')} failed: #{err}" unless status.success?

    out
  end

  def h2_python(input)
    PythonClients.run("clients/h2_client.py", input, timeout: 40)
  end

  def python_h2?
    system(PythonClients::PYTHON, "-c", "import h2, httpx", err: File::NULL)
  end

  it "serves curl by prior knowledge and by Upgrade: h2c, and HTTP/1.1 on the same port" do
    with_push_server(echo) do |port|
      url = "http://127.0.0.1:#{port}/p"
      expect(curl("--http2-prior-knowledge", url)).to eq("HTTP/2 GET /p 127.0.0.1:#{port} ")
      expect(curl("--http2-prior-knowledge", "-d", "hello", url)).to eq("HTTP/2 POST /p 127.0.0.1:#{port} hello")
      expect(curl("--http2", "-w", " %{http_version}", url)).to eq("HTTP/2 GET /p 127.0.0.1:#{port}  2")
      expect(curl("--http1.1", url)).to eq("HTTP/1.1 GET /p 127.0.0.1:#{port} ")
    end
  end

  it "offers rack.hijack on HTTP/1.1 only: an h2 stream shares its connection" do
    app = ->(env) { [200, {}, ["#{env['SERVER_PROTOCOL']} #{env['rack.hijack?']} #{env.key?('rack.hijack')}"]] }
    with_push_server(app) do |port|
      url = "http://127.0.0.1:#{port}/"
      expect(curl("--http2-prior-knowledge", url)).to eq("HTTP/2 false false")
      expect(curl("--http1.1", url)).to eq("HTTP/1.1 true true")
    end
  end

  it "stays on HTTP/1.1 with http2 off" do
    with_push_server(echo, http2: false) do |port|
      url = "http://127.0.0.1:#{port}/p"
      expect(curl("--http2", "-w", " %{http_version}", url)).to eq("HTTP/1.1 GET /p 127.0.0.1:#{port}  1.1")
      _, _, status = Open3.capture3("curl", "-sS", "--max-time", "10", "--http2-prior-knowledge", url)
      expect(status.success?).to be(false)
    end
  end

  it "answers every request h2load sends on many streams of several connections" do
    with_push_server(echo) do |port|
      out, = Open3.capture2e("timeout", "60", "h2load", "-n", "400", "-c", "4", "-m", "10", "http://127.0.0.1:#{port}/")
      expect(out).to include("400 succeeded, 0 failed, 0 errored, 0 timeout")
      expect(out).to include("status codes: 400 2xx")
    end
  end

  it "limits the streams a connection may open at once to max_concurrent_streams" do
    with_push_server(echo, max_concurrent_streams: 3) do |port|
      out, = Open3.capture2e("timeout", "30", "nghttp", "-v", "-n", "http://127.0.0.1:#{port}/")
      expect(out).to match(/SETTINGS_MAX_CONCURRENT_STREAMS\(0x03\):3\b/)
    end
  end

  it "runs the streams of one connection side by side on the workers (httpx)" do
    skip "Python h2/httpx missing: .toolchain/python/bin/pip install 'httpx[http2]'" unless python_h2?
    arrived = Queue.new
    release = Queue.new
    app = lambda do |env|
      arrived << env["PATH_INFO"]
      Timeout.timeout(20) { release.pop }
      [200, { "content-type" => "text/plain" }, ["#{env['SERVER_PROTOCOL']} #{env['PATH_INFO']}"]]
    end
    report = with_push_server(app, threads: [4, 4]) do |port|
      client = Thread.new { h2_python(url: "http://127.0.0.1:#{port}", mode: "concurrent", paths: %w[/a /b /c /d]) }
      paths = Timeout.timeout(20) { Array.new(4) { arrived.pop } } # all four at once on one connection
      4.times { release << :go }
      expect(paths.sort).to eq(%w[/a /b /c /d])
      Deadline.value(client, 60, "the httpx client")
    end
    expect(report["error"]).to be_nil
    expect(report["answers"].map { |a| [a["status"], a["version"], a["body"]] })
      .to eq(%w[/a /b /c /d].map { |p| [200, "HTTP/2", "HTTP/2 #{p}"] })
  end

  it "streams Server-Sent Events over an h2 stream through the same push API (httpx)" do
    skip "Python h2/httpx missing: .toolchain/python/bin/pip install 'httpx[http2]'" unless python_h2?
    recorder = PushServerHelpers::Recorder.new do |client|
      client.write("one")
      client.write("two")
    end
    app = lambda do |env|
      return [200, {}, ["plain"]] unless env["rack.upgrade?"] == :sse

      env["rack.upgrade"] = recorder
      [200, {}, []]
    end
    report = with_push_server(app) do |port|
      h2_python(url: "http://127.0.0.1:#{port}", mode: "sse", paths: ["/events"], events: 2)
    end
    expect(report["error"]).to be_nil
    expect(report.values_at("status", "version", "data")).to eq([200, "HTTP/2", %w[one two]])
    expect(report["content_type"]).to start_with("text/event-stream")
  end

  it "lets a stream in flight finish when the server stops, and logs it as HTTP/2" do
    arrived = Queue.new
    release = Queue.new
    app = lambda do |env|
      arrived << :in
      Timeout.timeout(20) { release.pop }
      [200, { "content-type" => "text/plain" }, ["finished"]]
    end
    log = StringIO.new
    server = Nettyrack::Server.new(app, host: "127.0.0.1", port: 0, threads: [2, 2], errors: StringIO.new, access_log: log)
    server.start
    client = Thread.new { Open3.capture3("curl", "-sS", "--max-time", "20", "--http2-prior-knowledge", "http://127.0.0.1:#{server.port}/slow") }
    Timeout.timeout(20) { arrived.pop }
    stopping = Thread.new { server.stop }
    Deadline.wait_until(timeout: 20) { !server.running? } # draining: GOAWAY sent, the stream still with the app
    release << :go
    out, _, status = Deadline.value(client, 30, "curl")
    Timeout.timeout(40) { stopping.join }
    expect([status.success?, out]).to eq([true, "finished"])
    expect(log.string).to include('"GET /slow HTTP/2" 200')
  end
end
