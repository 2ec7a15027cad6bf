# frozen_string_literal: true

require "json"

# The Rack env a door builds, seen by spec/fixtures/contract_app's /env (inside Rack::Lint, so
# every request here also passes Lint). SCRIPT_NAME is the door's mount point: "" for the Netty
# door, the context path in a container.
RSpec.shared_examples "the Rack env contract" do
  it "carries the CGI variables of a GET with a query, SCRIPT_NAME being the mount point" do
    env = env_at("/env/a/b%20c?x=1&y=2", "Host" => "example.org:8080")
    expect(env).to include(
      "REQUEST_METHOD" => "GET", "SCRIPT_NAME" => @door.script_name, "PATH_INFO" => "/env/a/b%20c",
      "QUERY_STRING" => "x=1&y=2", "SERVER_NAME" => "example.org", "SERVER_PORT" => "8080",
      "SERVER_PROTOCOL" => "HTTP/1.1", "REMOTE_ADDR" => "127.0.0.1", "rack.url_scheme" => "http",
      "rack.multithread" => true, "rack.multiprocess" => false, "HTTP_HOST" => "example.org:8080",
      "frozen_keys" => true
    )
    expect(env).not_to have_key("CONTENT_LENGTH")
  end

  it "defaults SERVER_PORT from the scheme and leaves QUERY_STRING empty" do
    env = env_at("/env", "Host" => "example.org")
    expect(env.values_at("SERVER_NAME", "SERVER_PORT", "QUERY_STRING")).to eq(["example.org", "80", ""])
  end

  it "keeps SERVER_PORT digits only: a Host ending in a bare colon names no port (Rack 3.2)" do
    if @door.kind == :jetty # Jetty refuses the empty port RFC 3986 allows: "400 Bad HostPort"
      expect(get("/env", "Host" => "example.org:").code).to eq("400")
    else
      env = env_at("/env", "Host" => "example.org:")
      expect(env.values_at("SERVER_NAME", "SERVER_PORT", "HTTP_HOST")).to eq(["example.org", "80", "example.org:"])
    end
    env = env_at("/env", "Host" => "[::1]:9")
    expect(env.values_at("SERVER_NAME", "SERVER_PORT")).to eq(["[::1]", "9"])
  end

  it "gives a POST body as a rewindable binary rack.input with CONTENT_TYPE and CONTENT_LENGTH" do
    response = post("/env/form", "a=1&b=2", "Content-Type" => "application/x-www-form-urlencoded")
    env = JSON.parse(response.body)
    expect(env.values_at("CONTENT_TYPE", "CONTENT_LENGTH")).to eq(["application/x-www-form-urlencoded", "7"])
    expect(env.values_at("body", "body_again", "body_encoding")).to eq(["a=1&b=2", "a=1&b=2", "ASCII-8BIT"])
    expect(env).not_to include("HTTP_CONTENT_TYPE", "HTTP_CONTENT_LENGTH")
  end

  it "de-chunks a chunked body and reports its real length" do
    reply = raw("POST #{target('/env/up')} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" \
                "5\r\nhello\r\n0\r\n\r\n")
    expect(reply).to start_with("HTTP/1.1 200")
    env = JSON.parse(reply.split("\r\n\r\n", 2).last[/\{.*\}/m])
    expect(env.values_at("CONTENT_LENGTH", "body")).to eq(%w[5 hello])
    expect(env).not_to have_key("HTTP_TRANSFER_ENCODING")
  end

  it "joins repeated headers, cookies with semicolons" do
    reply = raw("GET #{target('/env')} HTTP/1.1\r\nHost: x\r\nAccept: a\r\nAccept: b\r\nCookie: c=1\r\nCookie: d=2\r\n" \
                "Connection: close\r\n\r\n")
    env = JSON.parse(reply[/\{.*\}/m])
    expect(env.values_at("HTTP_ACCEPT", "HTTP_COOKIE")).to eq(["a, b", "c=1; d=2"])
  end

  it "never lets X_Foo impersonate X-Foo, whatever the order" do
    ["X_Forwarded_For: evil\r\nX-Forwarded-For: real", "X-Forwarded-For: real\r\nX_Forwarded_For: evil"].each do |fields|
      reply = raw("GET #{target('/env')} HTTP/1.1\r\nHost: x\r\n#{fields}\r\nConnection: close\r\n\r\n")
      expect(JSON.parse(reply[/\{.*\}/m])["HTTP_X_FORWARDED_FOR"]).to eq("real")
    end
    reply = raw("GET #{target('/env')} HTTP/1.1\r\nHost: x\r\nX_Only: u\r\nContent_Length: 5\r\nConnection: close\r\n\r\n")
    env = JSON.parse(reply[/\{.*\}/m])
    expect(env["HTTP_X_ONLY"]).to eq("u")
    expect(env).not_to include("HTTP_CONTENT_LENGTH", "CONTENT_LENGTH")
  end

  it "takes SERVER_NAME from the local address when an HTTP/1.0 client sends no Host" do
    reply = raw("GET #{target('/env')} HTTP/1.0\r\n\r\n")
    expect(reply).to start_with("HTTP/1.1 200")
    env = JSON.parse(reply[/\{.*\}/m])
    expect(env.values_at("SERVER_NAME", "SERVER_PORT", "SERVER_PROTOCOL")).to eq(["127.0.0.1", @door.port.to_s, "HTTP/1.0"])
  end

  it "names the server that answers in SERVER_SOFTWARE" do
    expected = { netty: /\Anettyrack\z/, jetty: /\Anettyrack\z/, tomcat: /\Anettyrack\z/ }
    expect(env_at("/env")["SERVER_SOFTWARE"]).to match(expected.fetch(@door.kind))
  end
end
