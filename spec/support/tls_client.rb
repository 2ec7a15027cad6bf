# frozen_string_literal: true

require "openssl"
require "socket"
require "timeout"

# A TLS connection a spec holds open (JRuby's OpenSSL): which certificate the server showed, and
# keep-alive requests one after another on the same connection, each bounded in time.
#
#   client = TlsClient.new(port)
#   client.subject        # => "/CN=localhost"
#   client.get("/a")      # => "hello /a" (the body)
#   client.close
class TlsClient
  def initialize(port, timeout: 10)
    @timeout = timeout
    context = OpenSSL::SSL::SSLContext.new
    context.verify_mode = OpenSSL::SSL::VERIFY_NONE
    Timeout.timeout(timeout) do
      @socket = OpenSSL::SSL::SSLSocket.new(TCPSocket.new("127.0.0.1", port), context)
      @socket.sync_close = true
      @socket.connect
    end
  end

  def subject
    @socket.peer_cert.subject.to_s
  end

  # The body of GET +path+ on this connection (which stays open).
  def get(path)
    Timeout.timeout(@timeout) do
      @socket.write("GET #{path} HTTP/1.1\r\nhost: localhost\r\n\r\n")
      head = +""
      head << @socket.readpartial(1) until head.end_with?("\r\n\r\n")
      raise "not a 200: #{head}" unless head.start_with?("HTTP/1.1 200")

      length = head[/^content-length: (\d+)/i, 1]
      length ? @socket.read(Integer(length)) : chunked_body
    end
  end

  def chunked_body
    body = +""
    loop do
      size = Integer(@socket.gets("\r\n").split(";").first, 16)
      body << @socket.read(size) if size.positive?
      @socket.gets("\r\n")
      return body if size.zero?
    end
  end

  def close
    @socket&.close
  end
end
