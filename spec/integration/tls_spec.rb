# frozen_string_literal: true

require "json"
require "open3"
require "socket"
require "stringio"
require "tmpdir"
require "uri"

# ssl:// listeners end to end: a Nettyrack::Server on 127.0.0.1 port 0 with certificates made
# for the occasion (TestCertificates), and real clients: curl, openssl s_client, Python's
# websockets over wss://, a raw socket speaking plain HTTP, JRuby's OpenSSL for reloads.
RSpec.describe "TLS listeners (ssl://)" do
  include PushServerHelpers

  around do |example|
    Dir.mktmpdir("nettyrack-tls") do |dir|
      @certs = TestCertificates.new(dir)
      @pem, @key = @certs.server("server")
      example.run
    end
  end

  let(:env_app) do
    lambda do |env|
      body = { scheme: env["rack.url_scheme"], https: env["HTTPS"], port: env["SERVER_PORT"],
               method: env["REQUEST_METHOD"], body: env["rack.input"].read }
      [200, { "content-type" => "application/json" }, [JSON.generate(body)]]
    end
  end

  def with_tls_server(app, **params)
    params = { cert: @pem, key: @key }.merge(params).compact
    server = Nettyrack::Server.new(app, binds: ["ssl://127.0.0.1:0?#{URI.encode_www_form(params)}"],
                                        threads: [1, 4], errors: StringIO.new)
    server.start
    yield server.port, server
  ensure
    server&.stop
  end

  def curl(*args)
    Open3.capture3("curl", "-sS", "--max-time", "10", *args)
  end

  def s_client(port, *args)
    TestCertificates.run("s_client", "-connect", "127.0.0.1:#{port}", "-servername", "localhost", *args).first
  end

  it "serves GET and POST to curl over https, with rack.url_scheme https and HTTPS on" do
    with_tls_server(env_app) do |port, server|
      expect(server.urls).to eq(["https://127.0.0.1:#{port}"])
      out, err, status = curl("--cacert", @pem, "https://127.0.0.1:#{port}/get")
      expect([status.exitstatus, err]).to eq([0, ""])
      expect(JSON.parse(out)).to eq("scheme" => "https", "https" => "on", "port" => port.to_s, "method" => "GET", "body" => "")
      out, = curl("--cacert", @pem, "--data-binary", "posted", "https://localhost:#{port}/post")
      expect(JSON.parse(out)).to include("method" => "POST", "body" => "posted", "scheme" => "https")
    end
  end

  it "speaks TLS 1.2 and 1.3, not 1.1, and agrees on h2, else http/1.1, through ALPN" do
    with_tls_server(env_app) do |port|
      expect(s_client(port, "-tls1_2")).to include("Protocol  : TLSv1.2")
      tls13 = s_client(port, "-tls1_3", "-alpn", "h2,http/1.1")
      expect(tls13).to include("New, TLSv1.3, Cipher is TLS_AES_")
      expect(tls13).to include("ALPN protocol: h2")
      expect(s_client(port, "-tls1_3", "-alpn", "http/1.1")).to include("ALPN protocol: http/1.1")
      # SECLEVEL=0: this client would speak TLS 1.1; the server is the one that refuses.
      expect(s_client(port, "-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0")).to include("alert protocol version")
    end
  end

  it "offers HTTP/1.1 alone with alpn=http/1.1, so that h2 clients speak HTTP/1.1" do
    app = ->(env) { [200, {}, [env["SERVER_PROTOCOL"]]] }
    with_tls_server(app, alpn: "http/1.1") do |port|
      expect(s_client(port, "-tls1_3", "-alpn", "h2,http/1.1")).to include("ALPN protocol: http/1.1")
      expect(s_client(port, "-tls1_3", "-alpn", "h2")).to match(/No ALPN negotiated|no application protocol/)
      out, err, status = curl("--cacert", @pem, "--http2", "-w", " %{http_version}", "https://localhost:#{port}/")
      expect([status.exitstatus, err, out]).to eq([0, "", "HTTP/1.1 1.1"])
    end
  end

  it "serves HTTP/2 over TLS to curl, each stream seeing https, and HTTP/1.1 to who asks for it" do
    app = lambda do |env|
      [200, {}, ["#{env['SERVER_PROTOCOL']} #{env['rack.url_scheme']} #{env['HTTPS']} #{env['rack.input'].read}"]]
    end
    with_tls_server(app) do |port|
      url = "https://127.0.0.1:#{port}/"
      out, err, = curl("--cacert", @pem, "--http2", "-w", " %{http_version}", url)
      expect([out, err]).to eq(["HTTP/2 https on  2", ""])
      out, = curl("--cacert", @pem, "--http2", "--data-binary", "posted", url)
      expect(out).to eq("HTTP/2 https on posted")
      out, = curl("--cacert", @pem, "--http1.1", "-w", " %{http_version}", url)
      expect(out).to eq("HTTP/1.1 https on  1.1")
    end
  end

  it "answers plain HTTP on the TLS port with a cleartext 400 and closes" do
    with_tls_server(env_app) do |port|
      socket = TCPSocket.new("127.0.0.1", port)
      socket.write("GET / HTTP/1.1\r\nhost: localhost\r\n\r\n")
      reply = Deadline.value(Thread.new { socket.read }, 10)
      expect(reply).to start_with("HTTP/1.1 400 Bad Request\r\n")
      expect(reply).to end_with("this port speaks HTTPS; use https://\n")
    ensure
      socket&.close
    end
  end

  it "upgrades wss:// for a real WebSocket client (Python websockets)" do
    handler = PushServerHelpers::Recorder.new(echo: true)
    app = lambda do |env|
      env["rack.upgrade"] = handler if env["rack.upgrade?"] == :websocket && env["rack.url_scheme"] == "https"
      [200, {}, []]
    end
    with_tls_server(app) do |port|
      report = PythonClients.run("clients/ws_client.py",
                                 { url: "wss://127.0.0.1:#{port}/chat", cafile: @pem, timeout: 10,
                                   steps: [{ send: { text: "over tls" } }, { recv: 1 }, { close: { code: 1000, reason: "" } }] },
                                 timeout: 30)
      expect(report["error"]).to be_nil
      expect(report["handshake"]["status"]).to eq(101)
      expect(report["received"]).to eq([{ "type" => "text", "data" => "over tls" }])
    end
  end

  it "serves from a PKCS#12 keystore and its password" do
    keystore = @certs.keystore("server", "s3cret")
    with_tls_server(env_app, cert: nil, key: nil, keystore: keystore, "keystore-pass": "s3cret") do |port|
      out, _err, status = curl("--cacert", @pem, "https://127.0.0.1:#{port}/")
      expect([status.exitstatus, JSON.parse(out)["scheme"]]).to eq([0, "https"])
    end
  end

  it "asks for client certificates signed by the ca with verify_mode=force_peer, refusing clients without" do
    @certs.server("ca", cn: "test CA")
    client_pem, client_key = @certs.client("alice", ca: "ca")
    stranger_pem, stranger_key = @certs.server("stranger")
    with_tls_server(env_app, verify_mode: "force_peer", ca: @certs.path("ca.pem")) do |port|
      url = "https://127.0.0.1:#{port}/"
      out, _err, status = curl("--cacert", @pem, "--cert", client_pem, "--key", client_key, url)
      expect([status.exitstatus, JSON.parse(out)["https"]]).to eq([0, "on"])
      expect(curl("--cacert", @pem, url).last.exitstatus).not_to eq(0)
      expect(curl("--cacert", @pem, "--cert", stranger_pem, "--key", stranger_key, url).last.exitstatus).not_to eq(0)
    end
    with_tls_server(env_app, verify_mode: "peer", ca: @certs.path("ca.pem")) do |port|
      expect(curl("--cacert", @pem, "https://127.0.0.1:#{port}/").last.exitstatus).to eq(0)
    end
  end

  it "reloads the certificate for new connections, keeping open ones, and keeps it when new files are bad" do
    with_tls_server(->(env) { [200, {}, ["hello #{env['PATH_INFO']}"]] }) do |port, server|
      open = TlsClient.new(port)
      expect(open.get("/before")).to eq("hello /before")
      expect(open.subject).to eq("/CN=localhost")
      @certs.server("server", cn: "renewed")
      expect(server.reload_tls).to eq(1)
      expect(TlsClient.new(port).subject).to eq("/CN=renewed")
      expect(open.get("/after")).to eq("hello /after")
      File.write(@key, "not a key")
      expect { server.reload_tls }.to raise_error(Nettyrack::ConfigError, %r{\Ahttps://127\.0\.0\.1:\d+: key file .* holds no PEM private key\z})
      expect(TlsClient.new(port).subject).to eq("/CN=renewed")
    ensure
      open&.close
    end
  end

  it "refuses to start with one sentence when the files do not make a TLS setup" do
    other_pem, = @certs.server("other")
    {
      { cert: @certs.path("missing.pem") } => /cert file .*missing\.pem: no such file\z/,
      { cert: other_pem } => /key .*server\.key does not match the certificate in .*other\.pem\z/,
      { verify_mode: "force_peer" } => /verify_mode=force_peer needs ca=FILE/,
      { alpn: "h3" } => %r{alpn must list h2 and/or http/1.1 .*got h3\z}
    }.each do |params, message|
      expect { with_tls_server(env_app, **params) { nil } }.to raise_error(Nettyrack::ConfigError, message)
    end
    keystore = @certs.keystore("server", "right")
    expect { with_tls_server(env_app, cert: nil, key: nil, keystore: keystore, "keystore-pass": "wrong") { nil } }
      .to raise_error(Nettyrack::ConfigError, /keystore .*server\.p12: wrong keystore-pass\z/)
  end
end
