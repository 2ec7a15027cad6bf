# frozen_string_literal: true

require_relative "bridge_helper"
require "tempfile"

# How responses leave the bridge (org.nettyrack.jruby.BodyWriter and ResponseHeadersReader).
RSpec.describe "Rack responses" do
  it "sends Array bodies whole, with Content-Length" do
    with_app(->(_env) { [200, { "content-type" => "text/plain" }, ["hello ", "world"]] }) do |port|
      reply = raw_request(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      expect(reply).to include("content-length: 11\r\n").and end_with("\r\n\r\nhello world")
    end
  end

  it "keeps several set-cookie values apart, given as an Array or joined by newlines" do
    app = lambda do |env|
      cookies = env["PATH_INFO"] == "/array" ? %w[a=1 b=2] : "a=1\nb=2"
      [200, { "set-cookie" => cookies, "content-type" => "text/plain" }, []]
    end
    with_app(app) do |port|
      %w[/array /newlines].each do |path|
        expect(http_get(port, path).get_fields("set-cookie")).to eq(%w[a=1 b=2])
      end
    end
  end

  it "streams each-bodies chunk by chunk, as they are yielded" do
    gate = Queue.new
    body = Object.new
    body.define_singleton_method(:each) do |&blk|
      blk.call("first\n")
      BridgeHelper.take(gate, 5) # the client must see the first chunk before the second exists
      blk.call("second\n")
    end
    with_app(->(_env) { [200, { "content-type" => "text/plain" }, body] }) do |port|
      socket = TCPSocket.new("127.0.0.1", port)
      socket.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      seen = +""
      seen << socket.readpartial(4096) until seen.include?("first\n")
      expect(seen).to include("transfer-encoding: chunked")
      expect(seen).not_to include("second")
      gate << :go
      rest = read_all(socket, 5)
      expect(rest).to include("second\n").and end_with("0\r\n\r\n")
    ensure
      socket&.close
    end
  end

  it "serves to_path bodies from the file, and Rack::Files ranges through each" do
    file = Tempfile.new("served")
    file.write("0123456789")
    file.close
    app = Rack::Lint.new(Rack::Files.new(File.dirname(file.path)))
    with_app(app) do |port|
      path = "/#{File.basename(file.path)}"
      expect(http_get(port, path).body).to eq("0123456789")
      partial = http_get(port, path, "Range" => "bytes=2-4")
      expect([partial.code, partial.body]).to eq(["206", "234"])
    end
  ensure
    file&.unlink
  end

  it "calls Rack 3 streaming bodies with a stream, and answers Rack 2 rack.hijack headers the same way" do
    streaming = ->(stream) { stream.write("a"); stream << "b"; stream.close }
    app = lambda do |env|
      if env["PATH_INFO"] == "/hijack"
        [200, { "content-type" => "text/plain", "rack.hijack" => streaming }, []]
      else
        [200, { "content-type" => "text/plain" }, streaming]
      end
    end
    with_app(app) do |port|
      %w[/ /hijack].each do |path|
        response = http_get(port, path)
        expect([response.body, response["transfer-encoding"], response["rack.hijack"]]).to eq(["ab", "chunked", nil])
      end
    end
  end

  it "always closes the body, also when iterating it fails" do
    closed = Queue.new
    body = Object.new
    body.define_singleton_method(:each) { |&_blk| raise "broken body" }
    body.define_singleton_method(:close) { closed << :closed }
    with_app(->(_env) { [200, {}, body] }) do |port|
      # Headers may already be on their way, so the only honest signal left is a cut connection.
      expect { http_get(port, "/") }.to raise_error { |e| expect(e).to be_a(IOError).or be_a(SystemCallError) }
      expect(BridgeHelper.take(closed, 5)).to eq(:closed)
    end
  end

  it "runs rack.response_finished callbacks with the status" do
    finished = Queue.new
    app = lambda do |env|
      env["rack.response_finished"] << ->(_env, status, headers, error) { finished << [status, headers["x-a"], error] }
      [201, { "x-a" => "1" }, ["made"]]
    end
    with_app(app) do |port|
      expect(http_get(port, "/").code).to eq("201")
      expect(BridgeHelper.take(finished, 5)).to eq([201, "1", nil])
    end
  end

  describe "application errors" do
    let(:failing) { ->(_env) { raise ArgumentError, "secret detail" } }

    it "answer 500 without the exception text outside development, logging it to rack.errors" do
      with_app(failing) do |port, errors|
        response = http_get(port, "/")
        expect(response.code).to eq("500")
        expect(response.body).not_to include("secret")
        expect(errors.string).to include("ArgumentError: secret detail")
        expect(http_get(port, "/").code).to eq("500"), "the server keeps serving"
      end
    end

    it "show the exception in development" do
      with_app(failing, development: true) do |port|
        expect(http_get(port, "/").body).to include("ArgumentError: secret detail")
      end
    end

    [
      ["a non-array", ->(_env) { "oops" }, "not a [status, headers, body] array"],
      ["a bad status", ->(_env) { [42, {}, []] }, "invalid status"],
      ["a header with CR LF", ->(_env) { [200, { "x-a" => "1\r\nx-evil: 1" }, []] }, "CR or NUL"],
      ["a bad header name", ->(_env) { [200, { "bad name" => "1" }, []] }, "invalid header name"],
      ["a non-String chunk", ->(_env) { [200, {}, [1]] }, "non-String"],
    ].each do |what, app, message|
      it "turn #{what} into a 500 naming the problem" do
        with_app(app) do |port, errors|
          expect(http_get(port, "/").code).to eq("500")
          expect(errors.string).to include(message)
        end
      end
    end
  end
end
