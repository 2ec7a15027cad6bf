# frozen_string_literal: true

# The servlet door's test app (ServletDoorContract): what the env held, a streamed body that
# waits for the test between its parts, and bodies that fail before and after their first byte.

require "timeout"
require "uri" # Rack 2.2's Rack::Lint checks SERVER_NAME with URI.parse but does not load it
require "rack/lint"

RELEASE = Queue.new
MARKER = $servlet_context.getInitParameter("test.marker")
at_exit { File.write(MARKER, "runtime stopped") if MARKER }

# Raises before yielding anything: a 500.
class FailsAtOnce
  def each
    raise "failed before the first byte"
  end
end

# Yields, then raises: the response is cut.
class FailsHalfway
  def each
    yield "partial\n"
    raise "failed after the first byte"
  end
end

# rack.upgrade (iodine's API): echoes, and closes on "bye".
class Echo
  def on_open(client)
    client.write("open #{client.env['SCRIPT_NAME']}#{client.env['PATH_INFO']}")
  end

  def on_message(client, data)
    client.write("echo: #{data}")
    client.close if data == "bye"
  end
end

# Every connection subscribes to "room"; what one sends, all get.
class Room
  def on_open(client)
    client.subscribe("room")
    client.write("joined")
  end

  def on_message(client, data)
    client.publish("room", data)
  end
end

# A body the server may send as a file.
class FileBody
  def initialize(path)
    @path = path
  end

  def to_path
    @path
  end

  def each
    yield File.binread(@path)
  end
end

# An SSE stream: two events, then keep-alive comments every 0.2 s; /sse-closed says when it closed.
SSE_CLOSED = Queue.new
class Stream
  def on_open(client)
    client.timeout = 0.2
    client.write("hello")
    client.write("second", id: "2", event: "greet")
  end

  def on_close(client)
    SSE_CLOSED << "closed"
  end
end

# A WebSocket that gets pinged when idle for 0.2 s.
class Pinged
  def on_open(client)
    client.timeout = 0.2
    client.write("open")
  end
end

LINTED = Rack::Lint.new(->(env) { [200, { "content-type" => "text/plain" }, ["lint ok #{env['rack.input'].read.bytesize}\n"]] })

# Writes 256 KB messages to a client that does not read, until the send queue (max-push-queue)
# refuses one; /flood-result says after how many.
FLOODS = Queue.new
class Flood
  def on_open(client)
    chunk = "x" * (256 * 1024)
    sent = (1..100).find { !client.write(chunk) }
    FLOODS << (sent ? "refused write #{sent}, open? #{client.open?}" : "never refused")
  end
end

KEYS = %w[REQUEST_METHOD SCRIPT_NAME PATH_INFO QUERY_STRING SERVER_PROTOCOL CONTENT_TYPE CONTENT_LENGTH
          HTTP_X_TEST rack.url_scheme rack.upgrade?].freeze

run lambda { |env|
  case env["PATH_INFO"]
  when "/lint"
    LINTED.call(env)
  when "/file"
    path = File.join(Dir.pwd, "config.ru")
    [200, { "content-type" => "text/plain", "content-length" => File.size(path).to_s }, FileBody.new(path)]
  when "/flood-result"
    [200, { "content-type" => "text/plain" }, [Timeout.timeout(30) { FLOODS.pop }]]
  when "/publish"
    [200, { "content-type" => "text/plain" }, [Nettyrack.publish("room", "from http").to_s]]
  when "/sse-closed"
    [200, { "content-type" => "text/plain" }, [Timeout.timeout(30) { SSE_CLOSED.pop }]]
  when "/sse", "/sse-flood"
    if env["rack.upgrade?"] == :sse
      env["rack.upgrade"] = env["PATH_INFO"] == "/sse" ? Stream.new : Flood.new
      [101, { "x-upgraded-by" => "rack", "content-type" => "text/html" }, []]
    else
      [406, { "content-type" => "text/plain" }, ["SSE only\n"]]
    end
  when "/ws", "/room", "/flood", "/pinged"
    if env["rack.upgrade?"] == :websocket
      env["rack.upgrade"] = { "/ws" => Echo, "/room" => Room, "/flood" => Flood, "/pinged" => Pinged }
                            .fetch(env["PATH_INFO"]).new
      [101, { "x-upgraded-by" => "rack" }, []]
    else
      [426, { "content-type" => "text/plain" }, ["WebSocket only\n"]]
    end
  when "/dated"
    [200, { "content-type" => "text/plain", "date" => "Sun, 06 Nov 1994 08:49:37 GMT" }, ["dated by the app\n"]]
  when "/release"
    RELEASE << :go
    [200, { "content-type" => "text/plain" }, ["released\n"]]
  when "/stream"
    body = Enumerator.new do |out|
      out << "first\n"
      out << (Timeout.timeout(30) { RELEASE.pop } ? "second\n" : "timed out\n")
    end
    [200, { "content-type" => "text/plain" }, body]
  when "/fails-at-once"
    [200, { "content-type" => "text/plain" }, FailsAtOnce.new]
  when "/fails-halfway"
    [200, { "content-type" => "text/plain" }, FailsHalfway.new]
  when "/thread"
    async = env["java.servlet_request"].isAsyncStarted
    [200, { "content-type" => "text/plain" }, ["#{java.lang.Thread.currentThread.getName} async=#{async}"]]
  when "/servlet"
    request = env["java.servlet_request"]
    response = env["java.servlet_response"]
    context = $servlet_context.getContextPath
    [200, { "content-type" => "text/plain" },
     ["#{request.getMethod} #{request.getRequestURI} #{response.respond_to?(:setHeader)} #{context}\n"]]
  else
    input = env["rack.input"].read
    lines = KEYS.map { |key| "#{key}=#{env[key]}" }
    lines << "input=#{input.bytesize}:#{input[0, 64]}"
    [200, { "content-type" => "text/plain", "x-app" => "rack" }, [lines.join("\n") + "\n"]]
  end
}
