# frozen_string_literal: true

require_relative "../jruby/bridge_helper"
require_relative "../support/nettyrack_process"
require "tmpdir"

# Slow and greedy clients over real sockets: each is contained, and an ordinary client is still
# served. How fast that ordinary client is served is measured in bench/, not here.
RSpec.describe "slow and greedy clients" do
  include SpoolingServer

  let(:app) do
    lambda do |env|
      input = env["rack.input"].read
      [200, { "content-type" => "text/plain" }, ["#{env['PATH_INFO']} #{input.bytesize}\n"]]
    end
  end

  def open_socket(port)
    TCPSocket.new("127.0.0.1", port)
  end

  # Reads from +socket+ until +pattern+ shows up, the peer closes, or +timeout+ passes.
  def read_until(socket, pattern, timeout: 10)
    out = +""
    deadline = Deadline.now + timeout
    until out.match?(pattern)
      left = deadline - Deadline.now
      break if left <= 0 || !IO.select([socket], nil, nil, left)

      chunk = socket.read_nonblock(65_536, exception: false)
      break if chunk.nil?

      out << chunk unless chunk == :wait_readable
    end
    out
  end

  describe "--body-timeout" do
    it "gives 408 to a client that sends its head and then stops sending the body" do
      with_app(app, bodyTimeoutMillis: 500, bodyMinRate: 1024) do |port|
        socket = open_socket(port)
        socket.write("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n#{'a' * 100}")
        reply = read_until(socket, /\r\n\r\n.*\n/m)
        expect(reply).to start_with("HTTP/1.1 408 Request Timeout").and include("connection: close")
        expect(Deadline.value(Thread.new { socket.read }, 10, "the server closing the connection")).to eq("") # closed
        expect(http_get(port, "/").body).to eq("/ 0\n")
      ensure
        socket&.close
      end
    end

    it "gives 408 to a body that trickles in below the minimum rate, and serves one sent steadily" do
      with_app(app, bodyTimeoutMillis: 1000, bodyMinRate: 1024) do |port|
        trickler = open_socket(port)
        trickler.write("POST /trickle HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
        steady = open_socket(port)
        steady.write("POST /steady HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        reply = +""
        20.times do # 2 s of a byte per 100 ms: the trickler has earned 20 ms of its 1 s
          trickler.write("a")
          steady.write("400\r\n#{'s' * 1024}\r\n") # 10 KiB/s, well over the minimum rate
          break if IO.select([trickler], nil, nil, 0.1) && (reply = read_until(trickler, /408/, timeout: 1)).include?("408")
        end
        reply = read_until(trickler, /408/) unless reply.include?("408")
        expect(reply).to start_with("HTTP/1.1 408 ")
        steady.write("0\r\n\r\n")
        expect(read_until(steady, %r{/steady \d+\n})).to match(%r{\AHTTP/1\.1 200 OK.*/steady \d+\n}m)
      ensure
        [trickler, steady].compact.each(&:close)
      end
    end
  end

  it "answers an ordinary client while 1,000 slowloris connections trickle their headers" do
    with_app(app, threads: [2, 4], headerTimeoutMillis: 60_000) do |port|
      loris = Array.new(1000) { open_socket(port).tap { |s| s.write("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ") } }
      3.times do |round|
        loris.each { |socket| socket.write("a") }
        expect(http_get(port, "/ordinary-#{round}").body).to eq("/ordinary-#{round} 0\n")
      end
      expect(loris.count { |s| IO.select([s], nil, nil, 0) }).to eq(0) # none answered or closed: still waiting
    ensure
      loris&.each(&:close)
    end
  end

  it "--max-connections: pauses accepting at the cap and resumes when a connection closes" do
    with_app(app, maxConnections: 2) do |port|
      first, second = Array.new(2) { open_socket(port).tap { |s| s.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n") } }
      [first, second].each { |socket| expect(read_until(socket, %r{/ 0\n})).to include("200 OK") }
      third = open_socket(port) # the kernel completes the handshake; nettyrack does not accept it yet
      third.write("GET /third HTTP/1.1\r\nHost: x\r\n\r\n")
      expect(IO.select([third], nil, nil, 0.5)).to be_nil
      first.close
      expect(read_until(third, %r{/third 0\n})).to include("HTTP/1.1 200 OK")
    ensure
      [first, second, third].compact.each(&:close)
    end
  end

  it "stops reading from a client that pipelines thousands of requests without reading answers" do
    calls = java.util.concurrent.atomic.AtomicInteger.new
    big = "x" * 65_536
    counting = ->(env) { calls.increment_and_get; [200, { "content-type" => "text/plain" }, [env["PATH_INFO"], big]] }
    with_app(counting, threads: [2, 2]) do |port|
      socket = open_socket(port)
      writer = Thread.new do
        5000.times { |i| socket.write("GET /#{i} HTTP/1.1\r\nHost: x\r\n\r\n") }
      rescue IOError, SystemCallError
        nil
      end
      # Answers pile up in the socket buffers until nettyrack stops asking the app for more.
      Deadline.wait_until(timeout: 30) { stalled?(calls) }
      expect(calls.get).to be < 1000
      expect(http_get(port, "/other").body).to start_with("/other") # and the others are served meanwhile
      answers = 0
      status = "HTTP/1.1 200 OK"
      buffer = +""
      while answers < 5000 && IO.select([socket], nil, nil, 10)
        buffer << socket.read_nonblock(1 << 20)
        answers += buffer.scan(status).size
        # Keep less than one status line, so one cut by the read is found whole next time and
        # one found whole is not counted again.
        buffer = buffer[-(status.size - 1)..] || buffer
      end
      expect(answers).to eq(5000)
      expect(writer.join(10)).to be_truthy
    ensure
      socket&.close
    end
  end

  it "spools big uploads to disk: 40 concurrent 25 MB uploads through a 96 MB heap, temp files deleted" do
    with_spooling_server do |port|
      chunk = Random.new(7).bytes(1 << 20)
      results = Array.new(40) do
        Thread.new do
          socket = open_socket(port)
          socket.write("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: #{25 << 20}\r\nConnection: close\r\n\r\n")
          25.times { socket.write(chunk) }
          read_until(socket, /\n\z/, timeout: 120)
        ensure
          socket&.close
        end
      end.map { |upload| Deadline.value(upload, 240, "a 25 MB upload and its answer") } # a blocked write has no timeout
      expect(results).to all(start_with("HTTP/1.1 200 OK").and(end_with("#{25 << 20} File\n")))
    end
  end

  # True once +counter+ has not moved for half a second.
  def stalled?(counter)
    before = counter.get
    sleep 0.5
    counter.get == before
  end
end
