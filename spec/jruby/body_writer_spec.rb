# frozen_string_literal: true

require_relative "bridge_helper"
require "open3"
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
      Deadline.read_until(socket, seen, /first\n/, 10) or raise "no first chunk within 10 s: #{seen.inspect}"
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

  it "sends a body whose to_path is nil (Rack 3.2) through each, and closes it once" do
    closes = java.util.concurrent.atomic.AtomicInteger.new
    body = Object.new
    body.define_singleton_method(:to_path) { nil }
    body.define_singleton_method(:each) { |&block| %w[from each].each(&block) }
    body.define_singleton_method(:close) { closes.increment_and_get }
    with_app(->(_env) { [200, { "content-type" => "text/plain" }, body] }) do |port|
      response = http_get(port, "/")
      expect([response.code, response.body]).to eq(%w[200 fromeach])
      expect(closes.get).to eq(1)
    end
  end

  it "calls Rack 3 streaming bodies with a stream; a rack.hijack header gets the socket, unframed" do
    streaming = ->(stream) { stream.write("a"); stream << "b"; stream.close }
    app = lambda do |env|
      if env["PATH_INFO"] == "/hijack"
        [200, { "content-type" => "text/plain", "rack.hijack" => streaming }, []]
      else
        [200, { "content-type" => "text/plain" }, streaming]
      end
    end
    with_app(app) do |port|
      { "/" => "chunked", "/hijack" => nil }.each do |path, framing| # hijack_spec.rb has the rest
        response = http_get(port, path)
        expect([response.body, response["transfer-encoding"], response["rack.hijack"]]).to eq(["ab", framing, nil])
      end
    end
  end

  it "lets a streaming body read the request body from its stream, with IO#read's ends" do
    app = lambda do |_env|
      body = lambda do |stream|
        first = stream.read(3)
        rest = stream.read
        stream.write("#{first&.upcase}|#{rest}|#{stream.read.inspect}|#{stream.read(1).inspect}")
        stream.close_read
        stream.close
      end
      [200, { "content-type" => "text/plain" }, body]
    end
    with_app(app) do |port|
      expect(http_post(port, "/", "abcdef").body).to eq('ABC|def|""|nil')
      expect(http_get(port, "/").body).to eq(%(||""|nil)) # no body: read(3) is nil, read is "", as IO#read at its end
    end
  end

  describe "a body that fails" do
    let(:finished) { Queue.new }
    let(:closed) { Queue.new }

    # A body whose each yields +chunks+ and then raises; its close reports to +closed+.
    def failing_body(*chunks, raise_in: :each)
      closed = self.closed
      Object.new.tap do |body|
        body.define_singleton_method(:each) do |&blk|
          chunks.each(&blk)
          raise "broken each" if raise_in == :each
        end
        body.define_singleton_method(:close) do
          closed << :closed
          raise "broken close" if raise_in == :close
        end
      end
    end

    def app_with(body)
      finished = self.finished
      lambda do |env|
        env["rack.response_finished"] << ->(_env, status, _headers, error) { finished << [status, error&.message] }
        [200, { "content-type" => "text/plain" }, body]
      end
    end

    it "before its first byte left gets a 500; rack.response_finished sees the error" do
      with_app(app_with(failing_body)) do |port, errors|
        response = http_get(port, "/")
        expect([response.code, response.body]).to eq(["500", "Internal Server Error\n"])
        expect(BridgeHelper.take(closed, 5)).to eq(:closed)
        expect(BridgeHelper.take(finished, 5)).to eq([500, "broken each"])
        expect(errors.string).to include("Error handling GET /: RuntimeError: broken each")
      end
    end

    it "in close, before its first byte left, gets a 500 too (empty chunks are not bytes)" do
      with_app(app_with(failing_body("", raise_in: :close))) do |port|
        expect(http_get(port, "/").code).to eq("500")
        expect(BridgeHelper.take(finished, 5)).to eq([500, "broken close"])
      end
    end

    it "after bytes left cuts the connection without the last chunk, and logs it" do
      with_app(app_with(failing_body("partial"))) do |port, errors|
        out, _err, status = Open3.capture3("curl", "-sS", "-m", "10", "http://127.0.0.1:#{port}/")
        expect(status.exitstatus).to eq(18) # curl: transfer closed with outstanding read data remaining
        expect(out).to eq("partial")
        expect(BridgeHelper.take(closed, 5)).to eq(:closed)
        expect(BridgeHelper.take(finished, 5)).to eq([500, "broken each"])
        expect(errors.string).to include("RuntimeError: broken each")
      end
    end
  end

  describe "HEAD" do
    it "answers an app wrapped in Rack::Lint with its status and headers, no body, connection kept" do
      app = Rack::Lint.new(->(_env) { [200, { "content-type" => "text/plain", "x-a" => "1" }, ["hello"]] })
      with_app(app) do |port, errors|
        out = `curl -sS -m 10 -I http://127.0.0.1:#{port}/ http://127.0.0.1:#{port}/ -w '%{num_connects}\n' 2>&1`
        expect(out.scan("HTTP/1.1 200 OK").size).to eq(2)
        expect(out).to include("x-a: 1").and end_with("0\n") # the second request reused the connection
        expect(errors.string).to be_empty
      end
    end

    it "never iterates the body, and still closes it; a plain Array gives the Content-Length" do
      iterated = java.util.concurrent.atomic.AtomicInteger.new
      closed = Queue.new
      streamed = Object.new
      streamed.define_singleton_method(:each) { |&_blk| iterated.increment_and_get }
      streamed.define_singleton_method(:close) { closed << :closed }
      app = ->(env) { [200, {}, env["PATH_INFO"] == "/array" ? %w[hello world] : streamed] }
      with_app(app) do |port|
        head = ->(path) { raw_request(port, "HEAD #{path} HTTP/1.1\r\nHost: x\r\n\r\n") }
        expect(head.call("/array")).to include("content-length: 10\r\n").and end_with("\r\n\r\n")
        expect(head.call("/streamed")).to start_with("HTTP/1.1 200 OK").and end_with("\r\n\r\n")
        expect(BridgeHelper.take(closed, 5)).to eq(:closed)
        expect(iterated.get).to eq(0)
      end
    end
  end

  it "runs rack.response_finished callbacks with the status and the app's own headers, repeated fields kept" do
    finished = Queue.new
    headers = { "x-a" => "1", "set-cookie" => ["a=1", "b=2"] }
    app = lambda do |env|
      env["rack.response_finished"] << ->(_env, status, seen, error) { finished << [status, seen, error] }
      [201, headers, ["made"]]
    end
    with_app(app) do |port|
      response = http_get(port, "/")
      expect([response.code, response.get_fields("set-cookie")]).to eq(["201", ["a=1", "b=2"]])
      status, seen, error = BridgeHelper.take(finished, 5)
      expect([status, seen, error]).to eq([201, { "x-a" => "1", "set-cookie" => ["a=1", "b=2"] }, nil])
      expect(seen).to equal(headers)
    end
  end

  it "gives rack.response_finished callbacks an empty Hash when the app raised before answering" do
    finished = Queue.new
    app = lambda do |env|
      env["rack.response_finished"] << ->(_env, status, seen, error) { finished << [status, seen, error.message] }
      raise "no answer"
    end
    with_app(app) do |port|
      expect(http_get(port, "/").code).to eq("500")
      expect(BridgeHelper.take(finished, 5)).to eq([500, {}, "no answer"])
    end
  end

  it "runs rack.response_finished callbacks in reverse order, as Rack 3.2's SPEC says" do
    finished = Queue.new
    app = lambda do |env|
      %i[first second third].each { |name| env["rack.response_finished"] << ->(*) { finished << name } }
      [200, {}, ["ok"]]
    end
    with_app(app) do |port|
      expect(http_get(port, "/").code).to eq("200")
      expect(Array.new(3) { BridgeHelper.take(finished, 5) }).to eq(%i[third second first])
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
