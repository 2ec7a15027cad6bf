# frozen_string_literal: true

require_relative "../support/files_helper"

# How the file sender behaves with clients and files that misbehave: a slow reader of a large
# file costs no heap (the kernel sends from the page cache), and a file cut short while it is
# being sent ends that connection instead of the response, over raw sockets.
RSpec.describe "sending large files" do
  around do |example|
    Dir.mktmpdir("nettyrack-big") do |dir|
      @public = dir
      example.run
    end
  end

  let(:to_path_app) do
    body = Struct.new(:to_path) { def each = raise("iterated: the file sender was not used") }
    ->(env) { [200, { "content-type" => "application/octet-stream" }, body.new(File.join(@public, env["PATH_INFO"]))] }
  end

  def sparse(name, size)
    File.join(@public, name).tap { |path| File.open(path, "wb") { |f| f.truncate(size) } }
  end

  # Opens a connection, asks for +path+, reads the head and +bytes+ body bytes; returns
  # [socket, content-length, body bytes read so far].
  def start_download(port, path, bytes, headers = "")
    socket = TCPSocket.new("127.0.0.1", port)
    socket.write("GET #{path} HTTP/1.1\r\nHost: x\r\n#{headers}\r\n")
    data = read_at_least(socket, +"") { |got| got.include?("\r\n\r\n") && got.bytesize - got.index("\r\n\r\n") - 4 >= bytes }
    head, body = data.split("\r\n\r\n", 2)
    expect(head).to start_with("HTTP/1.1 20")
    [socket, head[/content-length: (\d+)/i, 1].to_i, body.bytesize]
  end

  def read_at_least(socket, out)
    deadline = Deadline.now + 30
    until yield(out)
      raise "timed out with #{out.bytesize} bytes" if Deadline.now > deadline
      next unless IO.select([socket], nil, nil, 1)

      chunk = socket.read_nonblock(1 << 20, exception: false)
      raise "closed early" if chunk.nil?

      out << chunk unless chunk == :wait_readable
    end
    out
  end

  # Body bytes still to come until the server closes (nil: it did not within 30 s).
  def drain(socket)
    total = 0
    deadline = Deadline.now + 30
    while Deadline.now < deadline
      next unless IO.select([socket], nil, nil, 1)

      chunk = socket.read_nonblock(1 << 20, exception: false)
      return total if chunk.nil?

      total += chunk.bytesize unless chunk == :wait_readable
    end
    nil
  rescue Errno::ECONNRESET
    total
  end

  # Heap after a GC, plus direct buffers (the JDK's pool and Netty's own, which the heap
  # figure would not show): what a server that copied files through memory would grow.
  def memory_used
    3.times { java.lang.System.gc }
    heap = java.lang.management.ManagementFactory.getMemoryMXBean.getHeapMemoryUsage.getUsed
    pools = java.lang.management.ManagementFactory.getPlatformMXBeans(java.lang.management.BufferPoolMXBean.java_class)
    direct = pools.select { |pool| pool.getName == "direct" }.sum(&:getMemoryUsed)
    heap + direct + [Java::IoNettyUtilInternal::PlatformDependent.usedDirectMemory, 0].max
  end

  it "holds no more heap or direct memory for slow readers of a 200 MB file than before they came (public and to_path)" do
    sparse("big.bin", 200 * 1024 * 1024)
    with_app(to_path_app, files: file_options(@public)) do |public_port|
      with_app(to_path_app) do |app_port|
        fast, = Open3.capture2("curl", "-s", "--max-time", "60", "-o", "/dev/null", "-w", "%{http_code} %{size_download}",
                               "http://127.0.0.1:#{public_port}/big.bin")
        expect(fast).to eq("200 #{200 * 1024 * 1024}")
        before = memory_used
        readers = [[public_port, ""], [public_port, ""], [app_port, ""], [app_port, "Range: bytes=1000-\r\n"]]
        sockets = readers.map { |port, range| start_download(port, "/big.bin", 1 << 20, range).first }
        grown = memory_used - before
        expect(grown).to be < 48 * 1024 * 1024, "memory grew by #{grown / 1024 / 1024} MB with #{sockets.size} slow readers"
      ensure
        sockets&.each(&:close)
      end
    end
  end

  [["a public file", :public], ["a to_path body", :to_path]].each do |what, kind|
    it "closes the connection when #{what} is truncated while being sent, and goes on serving" do
      path = sparse("shrinking.bin", 64 * 1024 * 1024)
      File.write(File.join(@public, "small.txt"), "still here\n")
      options = kind == :public ? { files: file_options(@public) } : {}
      with_app(to_path_app, **options) do |port|
        socket, length, got = start_download(port, "/shrinking.bin", 256 * 1024)
        File.truncate(path, 1024 * 1024)
        rest = drain(socket)
        expect(rest).not_to be_nil, "the connection stayed open"
        expect(got + rest).to be < length
        expect(curl(port, "/small.txt").body).to eq("still here\n")
      ensure
        socket&.close
      end
    end
  end
end
