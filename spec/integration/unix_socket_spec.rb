# frozen_string_literal: true

require "fileutils"
require "open3"
require "stringio"
require "tmpdir"

# unix:// listeners with real clients: curl --unix-socket, Python's websockets (unix_connect),
# bin/nettyrack as a person runs it, and Debian's nginx proxying HTTP and WebSocket to the
# socket as the README recommends. REMOTE_ADDR is "127.0.0.1" on a unix socket, as Puma sets it.
RSpec.describe "unix:// listeners" do
  let(:dir) { Dir.mktmpdir("nettyrack-unix") }
  let(:socket) { File.join(dir, "app.sock") }
  let(:access_log) { StringIO.new }
  let(:app) do
    lambda do |env|
      if env["rack.upgrade?"] == :websocket
        env["rack.upgrade"] = Class.new do
          def on_open(client) = client.write("REMOTE_ADDR=#{client.env['REMOTE_ADDR']}")
          def on_message(client, data) = client.write(data)
        end.new
      end
      said = [env["REQUEST_METHOD"], env["PATH_INFO"], env["REMOTE_ADDR"], env["HTTP_X_FORWARDED_FOR"], env["rack.input"].read]
      [200, { "content-type" => "text/plain" }, [said.compact.reject(&:empty?).join(" ")]]
    end
  end

  after { FileUtils.rm_rf(dir) }

  let(:errors) { StringIO.new }

  def serving(**options)
    server = Nettyrack::Server.new(app, binds: ["unix://#{socket}"], threads: [1, 4], errors: errors,
                                        access_log: access_log, **options).start
    yield server
  ensure
    server&.stop
  end

  def curl(*args)
    out, status = Open3.capture2e("curl", "-sS", "--max-time", "10", "--unix-socket", socket, *args)
    expect(status.exitstatus).to eq(0), out
    out
  end

  # What the server sent over one connection to the socket, given +bytes+, until it closed.
  def raw(bytes)
    script = "import socket,sys\ns=socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(sys.argv[1])\n" \
             "s.sendall(sys.stdin.buffer.read()); out=b''\nwhile d := s.recv(65536): out += d\nsys.stdout.buffer.write(out)"
    out, status = Open3.capture2(PythonClients::PYTHON, "-c", script, socket, stdin_data: bytes)
    expect(status.exitstatus).to eq(0)
    out
  end

  def websocket(url, **spec)
    steps = [{ recv: 1 }, { send: { text: "echo me" } }, { recv: 1 }, { close: { code: 1000 } }]
    PythonClients.run("clients/ws_client.py", { url: url, steps: steps, **spec })
  end

  it "serves curl's GETs on one keep-alive connection and a POST, REMOTE_ADDR 127.0.0.1 as Puma gives it" do
    serving do |server|
      expect(server.urls).to eq(["unix://#{socket}"])
      expect(curl("-w", " %{num_connects}\n", "http://app/one", "http://app/two").lines)
        .to eq(["GET /one 127.0.0.1 1\n", "GET /two 127.0.0.1 0\n"])
      expect(curl("-d", "posted", "http://app/form")).to eq("POST /form 127.0.0.1 posted")
    end
    expect(access_log.string.lines.map { |line| line[/\A\S+/] }).to eq(%w[127.0.0.1] * 3)
  end

  it "reads a PROXY header and counts the request in the stats, with max_connections set" do
    serving(proxy_protocol: true, max_connections: 2, control_url: "tcp://127.0.0.1:0", control_token: :none) do |server|
      request = "GET /proxied HTTP/1.1\r\nhost: app\r\nconnection: close\r\n\r\n"
      expect(raw("PROXY TCP4 203.0.113.7 127.0.0.1 5555 80\r\n#{request}")).to end_with("\r\n\r\nGET /proxied 203.0.113.7")
      expect(raw(request)).to eq("")
      stats = fetch("http://#{server.control_url.delete_prefix('tcp://')}/stats").body
      expect(stats).to include('"total":1,')
    end
    expect(errors.string).to eq("nettyrack: closed a connection from a client of unix://#{socket} " \
                                "that did not open with a valid PROXY protocol header (unknown identifier: GET)\n")
    expect(access_log.string).to start_with("203.0.113.7 ")
  end

  it "upgrades a WebSocket that Python's websockets opens over the socket" do
    serving do
      report = websocket("ws://app/ws", unix: socket)
      expect(report["error"]).to be_nil
      expect(report["received"]).to eq([{ "type" => "text", "data" => "REMOTE_ADDR=127.0.0.1" },
                                        { "type" => "text", "data" => "echo me" }])
    end
  end

  describe "behind Debian's nginx (proxy_pass http://unix:...)", if: StreamProxy.nginx_http? do
    it "proxies HTTP and WebSocket upgrades to the socket" do
      serving do
        proxy = StreamProxy.nginx_unix(socket)
        begin
          out, status = Open3.capture2e("curl", "-sS", "--max-time", "10", "-d", "via nginx",
                                        "http://127.0.0.1:#{proxy.port}/proxied")
          expect([status.exitstatus, out]).to eq([0, "POST /proxied 127.0.0.1 127.0.0.1 via nginx"])
          report = websocket("ws://127.0.0.1:#{proxy.port}/ws")
          expect(report["error"]).to be_nil
          expect(report["handshake"]["status"]).to eq(101)
          expect(report["received"]).to eq([{ "type" => "text", "data" => "REMOTE_ADDR=127.0.0.1" },
                                            { "type" => "text", "data" => "echo me" }])
        ensure
          proxy.stop
        end
      end
    end
  end

  describe "bin/nettyrack -b unix://" do
    def nettyrack(*args)
      child = NettyrackProcess.new(*args, chdir: File.expand_path("../..", __dir__))
      yield child
    ensure
      child&.kill
    end

    # A socket file nobody listens on, as a server killed with SIGKILL leaves it.
    def stale_socket(path)
      script = "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.close()"
      out, status = Open3.capture2e(PythonClients::PYTHON, "-c", script, path)
      expect(status.exitstatus).to eq(0), out
      expect(File.socket?(path)).to be(true)
    end

    it "replaces a stale socket, applies mode, refuses a second server, removes the file on SIGTERM" do
      stale_socket(socket)
      nettyrack("-b", "unix://#{socket}?mode=0660", "spec/fixtures/hello.ru") do |child|
        child.stdout_match(/ listening on unix:\/\/#{Regexp.escape(socket)}\n/)
        expect(File.stat(socket).mode & 0o777).to eq(0o660)
        expect(curl("http://app/from-cli")).to eq("hello /from-cli")

        nettyrack("-b", "unix://#{socket}", "spec/fixtures/hello.ru") do |second|
          expect(second.wait.exitstatus).to eq(1)
          expect(second.stderr).to eq("nettyrack: unix://#{socket} is in use by another server\n")
        end
        expect(curl("http://app/still")).to eq("hello /still")

        child.signal("TERM")
        expect(child.wait.exitstatus).to eq(0)
      end
      expect(File.exist?(socket)).to be(false)
    end

    it "refuses a path that is no socket, and leaves the file alone" do
      File.write(socket, "notes")
      nettyrack("-b", "unix://#{socket}", "spec/fixtures/hello.ru") do |child|
        expect(child.wait.exitstatus).to eq(1)
        expect(child.stderr).to eq("nettyrack: unix://#{socket} exists and is not a socket; remove it or choose another path\n")
      end
      expect(File.read(socket)).to eq("notes")
    end
  end
end
