# frozen_string_literal: true

require "base64"
require "digest/sha1"
require "securerandom"
require "socket"
require_relative "deadline"

# A minimal WebSocket client for specs that hold a connection open from Ruby while something
# else happens (the push specs use the Python clients): the RFC 6455 handshake, then the
# server's messages one at a time, every wait bounded.
#
#   ws = WsClient.open(port, "/ws?channel=news")
#   ws.read_message  # => [:text, "hello"] (UTF-8) or [:binary, bytes]; control frames skipped
#   ws.close
class WsClient
  GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
  OPCODES = { 0 => :continuation, 1 => :text, 2 => :binary, 8 => :close, 9 => :ping, 10 => :pong }.freeze

  # local_host: the address to connect from (JRuby's Socket.tcp cannot bind one: TCPSocket).
  def self.open(port, path, host: "127.0.0.1", local_host: nil, timeout: 10)
    socket = local_host ? TCPSocket.new(host, port, local_host) : Socket.tcp(host, port, connect_timeout: timeout)
    new(socket).tap { |client| client.handshake(host, port, path, timeout) }
  rescue StandardError
    socket&.close
    raise
  end

  def initialize(socket)
    @socket = socket
    @buffer = "".b
  end

  def handshake(host, port, path, timeout)
    key = Base64.strict_encode64(SecureRandom.bytes(16))
    @socket.write("GET #{path} HTTP/1.1\r\nHost: #{host}:#{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" \
                  "Sec-WebSocket-Key: #{key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
    head = read_until_head(Deadline.now + timeout)
    accept = Base64.strict_encode64(Digest::SHA1.digest(key + GUID))
    return if head.start_with?("HTTP/1.1 101") && head.match?(/^sec-websocket-accept: #{Regexp.escape(accept)}\r$/i)

    raise "WebSocket handshake failed:\n#{head}"
  end

  # The next text or binary message; raises at the deadline or when the server closes.
  def read_message(timeout: 10)
    limit = Deadline.now + timeout
    kind = nil
    data = "".b
    loop do
      opcode, fin, payload = read_frame(limit)
      case opcode
      when :text, :binary, :continuation
        kind ||= opcode
        data << payload
        return [kind, kind == :text ? data.force_encoding(Encoding::UTF_8) : data] if fin
      when :close then raise "the server closed the WebSocket (#{payload.unpack1('n') if payload.bytesize >= 2})"
      end
    end
  end

  # Reads until the server ends the connection: [the text messages before, the close code];
  # the code is nil when the connection ended without a close frame (a browser's 1006).
  # Raises at the deadline.
  def read_until_close(timeout: 30)
    limit = Deadline.now + timeout
    messages = []
    loop do
      opcode, _fin, payload = read_frame(limit)
      messages << payload.force_encoding(Encoding::UTF_8) if opcode == :text
      return [messages, payload.bytesize >= 2 ? payload.unpack1("n") : nil] if opcode == :close
    end
  rescue RuntimeError
    raise if Deadline.now >= limit

    [messages, nil]
  end

  # Sends a close frame (1000) and closes the socket.
  def close
    mask = SecureRandom.bytes(4)
    payload = [1000].pack("n")
    masked = payload.bytes.each_with_index.map { |byte, i| byte ^ mask.getbyte(i % 4) }.pack("C*")
    @socket.write([0x88, 0x80 | payload.bytesize].pack("CC") + mask + masked)
  rescue SystemCallError, IOError
    nil
  ensure
    @socket.close unless @socket.closed?
  end

  private

  def read_until_head(limit)
    until (split = @buffer.index("\r\n\r\n"))
      fill(limit)
    end
    head = @buffer.slice!(0, split + 4)
    head.force_encoding(Encoding::ISO_8859_1)
  end

  def read_frame(limit)
    first, second = take(2, limit).bytes
    length = second & 0x7f
    length = take(2, limit).unpack1("n") if length == 126
    length = take(8, limit).unpack1("Q>") if length == 127
    raise "the server sent a masked frame" if second & 0x80 != 0

    [OPCODES.fetch(first & 0x0f), first & 0x80 != 0, take(length, limit)]
  end

  def take(count, limit)
    fill(limit) while @buffer.bytesize < count
    @buffer.slice!(0, count)
  end

  def fill(limit)
    raise "no data from the server within the deadline" unless Deadline.read_some(@socket, @buffer, limit)
  end
end
