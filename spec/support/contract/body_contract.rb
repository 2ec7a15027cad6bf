# frozen_string_literal: true

require "open3"

# How a door frames what the app returns (spec/fixtures/contract_app): an Array body whole with
# Content-Length, a body that only yields streamed chunked (HTTP/1.1) or until close (HTTP/1.0),
# HEAD without a body on a connection that stays open (to_path bodies: file_body_contract.rb).
RSpec.shared_examples "the response body contract" do
  def reply_to(path, version: "1.1", keep_alive: false)
    close = keep_alive ? "" : "Connection: close\r\n"
    reply = raw("GET #{target(path)} HTTP/#{version}\r\nHost: x\r\n#{close}\r\n", upto: keep_alive && /\r\n0\r\n\r\n/)
    head, body = reply.split("\r\n\r\n", 2)
    [head.downcase, body]
  end

  it "sends an Array body whole, with Content-Length" do
    head, body = reply_to("/whole")
    expect(head).to start_with("http/1.1 200").and include("content-length: 4")
    expect(head).not_to include("transfer-encoding")
    expect(body).to eq("abcd")
  end

  it "streams a body that only yields, chunked on a connection kept open" do
    head, body = reply_to("/stream", keep_alive: true)
    expect(head).to start_with("http/1.1 200").and include("transfer-encoding: chunked")
    expect(body).to eq("2\r\nab\r\n2\r\ncd\r\n0\r\n\r\n")
  end

  it "streams it to an HTTP/1.0 client unframed, ending with the connection" do
    head, body = reply_to("/stream", version: "1.0")
    expect(head).to start_with("http/1.1 200")
    expect(head).not_to include("transfer-encoding")
    expect(body).to eq("abcd")
  end

  it "answers HEAD from curl with headers only, keeping the connection" do
    url = "http://127.0.0.1:#{@door.port}#{target('/whole')}"
    out, = Open3.capture2e("curl", "-sS", "--max-time", "30", "-I", url, url, "-w", "%{num_connects}\n")
    expect(out.scan(%r{HTTP/1.1 200}).size).to eq(2)
    expect(out.downcase).to include("content-length: 4")
    expect(out).to end_with("0\n") # new connections for the second request
    expect(out).not_to include("abcd")
  end

  # Tomcat's connector says 100 Continue itself before the door sees the request (its default
  # continueResponseTiming="immediately"), so there the 413 follows a 100.
  it "says 100 Continue to curl before an upload, and 413 instead when it is too large (after a 100 in Tomcat)" do
    curl = ["curl", "-sS", "--max-time", "30", "-v", "-H", "Expect: 100-continue", "--data-binary", "@-", "http://127.0.0.1:#{@door.port}#{target('/')}"]
    ok, = Open3.capture2e(*curl, stdin_data: "x" * 5000)
    expect(ok).to match(%r{HTTP/1.1 100\b}).and include("fine") # Tomcat sends no reason phrases
    big, = Open3.capture2e(*curl, stdin_data: "x" * 50_000)
    expect(big).to include("HTTP/1.1 413")
    expect(big).to include("413 Request Entity Too Large")
    expect(big).not_to match(%r{HTTP/1.1 100\b}) unless @door.kind == :tomcat
  end
end
