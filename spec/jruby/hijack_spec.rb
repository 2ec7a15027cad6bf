# frozen_string_literal: true

require_relative "bridge_helper"

# rack.hijack through the Netty door, over real sockets: the app gets a real TCPSocket that
# IO.select accepts, bytes flow both ways, closes and half-closes pass through, and the
# server lets go of the connection (nothing written after a full hijack; counts back to zero).
RSpec.describe "rack.hijack" do
  let(:events) { Queue.new }

  # Reads from +socket+ until +pattern+ (a Regexp, or a byte count) has arrived, EOF, or the
  # deadline passes; returns all read.
  def read_until(socket, pattern, timeout: 10)
    out = +""
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
    until pattern.is_a?(Integer) ? out.bytesize >= pattern : out.match?(pattern)
      left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
      break if left <= 0 || !IO.select([socket], nil, nil, left)

      chunk = socket.read_nonblock(16_384, exception: false)
      break if chunk.nil?

      out << chunk unless chunk == :wait_readable
    end
    out
  end

  # Echoes what arrives on +io+ with IO.select and read_nonblock until EOF, then closes it.
  def echo(io, events)
    loop do
      break unless IO.select([io], nil, nil, 10)

      data = io.read_nonblock(4096, exception: false)
      next if data == :wait_readable

      if data.nil?
        events << :eof
        break
      end
      io.write(data)
    end
  ensure
    io.close
    events << :closed
  end

  def full_hijack_echo(events)
    test = self
    lambda do |env|
      events << [env["rack.hijack?"], env["rack.hijack"].respond_to?(:call)]
      io = env["rack.hijack"].call
      events << [io.class, env["rack.hijack_io"].equal?(io)]
      io.write("HTTP/1.1 101 Switching Protocols\r\nupgrade: echo\r\nconnection: upgrade\r\n\r\n")
      Thread.new { test.echo(io, events) }
      [200, { "content-type" => "text/plain" }, ["the server must not send this"]]
    end
  end

  def connect(port, request = "GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\n")
    socket = TCPSocket.new("127.0.0.1", port)
    socket.write(request)
    socket
  end

  def wait_for_no_connections(server)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10
    stats = server.stats
    while (stats.open_connections.positive? || stats.requests_in_flight.positive?) &&
          Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
      IO.select(nil, nil, nil, 0.02)
      stats = server.stats
    end
    stats
  end

  it "gives a full hijack a real socket; bytes echo both ways and nothing else is written" do
    with_app(full_hijack_echo(events)) do |port, errors, server|
      socket = connect(port)
      head = read_until(socket, /\r\n\r\n/)
      expect(head).to eq("HTTP/1.1 101 Switching Protocols\r\nupgrade: echo\r\nconnection: upgrade\r\n\r\n")
      socket.write("hello\n")
      expect(read_until(socket, /hello\n/)).to eq("hello\n")
      socket.write("x" * 100_000)
      expect(read_until(socket, 100_000)).to eq("x" * 100_000)
      socket.close_write
      expect(read_until(socket, /never/)).to eq("") # EOF: the app closed after the echo
      expect(BridgeHelper.take(events)).to eq([true, true])
      expect(BridgeHelper.take(events)).to eq([TCPSocket, true])
      expect(BridgeHelper.take(events)).to eq(:eof)
      expect(BridgeHelper.take(events)).to eq(:closed)
      socket.close
      stats = wait_for_no_connections(server)
      expect([stats.open_connections, stats.requests_in_flight]).to eq([0, 0])
      expect(errors.string).to eq("")
    end
  end

  it "passes on bytes the client sent right behind the request head" do
    with_app(full_hijack_echo(events)) do |port|
      socket = connect(port, "GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\nearly bytes")
      expect(read_until(socket, /early bytes/)).to end_with("\r\n\r\nearly bytes")
      socket.close
    end
  end

  it "closes the client's connection when the app closes the IO" do
    app = lambda do |env|
      io = env["rack.hijack"].call
      io.write("HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nbye")
      io.close
      events << io.closed?
      [-1, {}, []]
    end
    with_app(app) do |port, _errors, server|
      socket = connect(port)
      expect(read_until(socket, /never/)).to eq("HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nbye")
      expect(BridgeHelper.take(events)).to be(true)
      socket.close
      expect(wait_for_no_connections(server).open_connections).to eq(0)
    end
  end

  it "shows the app EOF when the client closes, and the app may still answer (half-close)" do
    app = lambda do |env|
      io = env["rack.hijack"].call
      io.write("go\n")
      Thread.new do
        events << io.read # until EOF
        io.write("got it")
        io.close
      end
      [200, {}, []]
    end
    with_app(app) do |port|
      socket = connect(port)
      expect(read_until(socket, /go\n/)).to eq("go\n")
      socket.write("all of it")
      socket.close_write
      expect(BridgeHelper.take(events)).to eq("all of it")
      expect(read_until(socket, /never/)).to eq("got it")
      socket.close
    end
  end

  it "writes a partial hijack's head without framing, then hands the IO to its callable" do
    app = lambda do |env|
      callable = lambda do |io|
        events << io.class
        io.write("streamed ")
        io.flush
        io.write_nonblock("by the app")
        io.close
      end
      [200, { "content-type" => "text/plain", "content-length" => "99", "rack.hijack" => callable }, []]
    end
    with_app(Rack::Lint.new(app)) do |port, errors, server|
      socket = connect(port)
      response = read_until(socket, /never/)
      head, body = response.split("\r\n\r\n", 2)
      expect(head.lines.first).to eq("HTTP/1.1 200 OK\r\n")
      expect(head.downcase).to include("content-type: text/plain")
      expect(head.downcase).not_to include("content-length", "transfer-encoding", "rack.hijack")
      expect(body).to eq("streamed by the app")
      expect(BridgeHelper.take(events)).to eq(Rack::Lint::HijackWrapper) # around a TCPSocket
      socket.close
      expect(wait_for_no_connections(server).open_connections).to eq(0)
      expect(errors.string).to eq("")
    end
  end

  it "passes Rack::Lint's checks of the hijack env and IO" do
    app = lambda do |env|
      io = env["rack.hijack"].call
      %i[read write read_nonblock write_nonblock flush close close_read close_write closed?].each do |m|
        events << m unless io.respond_to?(m)
      end
      io.write("HTTP/1.1 204 No Content\r\n\r\n")
      io.close
      events << :done
      [200, {}, []]
    end
    with_app(Rack::Lint.new(app)) do |port, errors|
      socket = connect(port)
      expect(read_until(socket, /never/)).to eq("HTTP/1.1 204 No Content\r\n\r\n")
      expect(BridgeHelper.take(events)).to eq(:done)
      socket.close
      expect(errors.string).to eq("")
    end
  end

  it "lets a stopping server close hijacked connections rather than wait for them" do
    with_app(full_hijack_echo(events), shutdownTimeoutMillis: 600_000) do |port, _errors, server|
      socket = connect(port)
      read_until(socket, /\r\n\r\n/)
      expect(Timeout.timeout(120) { server.stop }).to be(true) # stop waits no shutdown timeout for it
      expect(read_until(socket, /never/)).to eq("")
      socket.close
    end
  end

  it "keeps serving plain requests on other connections, and ordinary responses are unchanged" do
    app = ->(env) { [200, { "content-type" => "text/plain" }, [env["rack.hijack?"].inspect]] }
    with_app(app) do |port|
      2.times do
        response = http_get(port, "/")
        expect([response.body, response["content-length"]]).to eq(%w[true 4])
      end
    end
  end
end
