# frozen_string_literal: true

require "fileutils"
require "socket"
require "tmpdir"
require_relative "deadline"

# A real redis-server for a spec, on a free 127.0.0.1 port, without persistence:
#
#   redis = RedisServer.start   # skip the spec when redis-server is not installed: RedisServer.available?
#   redis.url                   # => "redis://127.0.0.1:41234"
#   redis.subscribers("chat")   # => how many connections subscribe to "chat" (PUBSUB NUMSUB)
#   redis.stop
class RedisServer
  BINARY = ENV.fetch("PATH", "").split(File::PATH_SEPARATOR)
              .map { |dir| File.join(dir, "redis-server") }.find { |path| File.executable?(path) }

  def self.available?
    !BINARY.nil?
  end

  def self.start
    new.tap(&:restart)
  end

  attr_reader :port

  def initialize
    @port = TCPServer.open("127.0.0.1", 0) { |server| server.addr[1] }
    @dir = Dir.mktmpdir("nettyrack-redis")
  end

  def url
    "redis://127.0.0.1:#{@port}"
  end

  # Starts (again, after #kill) on the same port; returns once it accepts connections.
  def restart
    @pid = Process.spawn(BINARY, "--port", @port.to_s, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                         "--dir", @dir, in: File::NULL, out: File.join(@dir, "redis.log"), err: %i[child out])
    limit = Deadline.now + 20
    until accepts?
      raise "redis-server did not start: #{File.read(File.join(@dir, 'redis.log'))}" if Deadline.now > limit

      IO.select(nil, nil, nil, 0.02)
    end
  end

  def subscribers(channel)
    command("PUBSUB", "NUMSUB", channel)[1].to_i
  end

  def kill
    Process.kill("KILL", @pid)
    Process.wait(@pid)
  rescue Errno::ESRCH, Errno::ECHILD
    nil
  end

  def stop
    kill
    FileUtils.rm_rf(@dir)
  end

  private

  def accepts?
    TCPSocket.open("127.0.0.1", @port).close
    true
  rescue SystemCallError
    false
  end

  # One command in RESP; the reply as an Array of Strings (enough for PUBSUB NUMSUB).
  def command(*args)
    TCPSocket.open("127.0.0.1", @port) do |socket|
      socket.write("*#{args.size}\r\n" + args.map { |arg| "$#{arg.bytesize}\r\n#{arg}\r\n" }.join)
      read_reply(socket)
    end
  end

  def read_reply(socket)
    raise "no reply from redis-server" unless socket.wait_readable(10)

    line = socket.gets("\r\n").chomp("\r\n")
    case line[0]
    when "*" then Array.new(line[1..].to_i) { read_reply(socket) }
    when "$" then socket.read(line[1..].to_i + 2).chomp("\r\n")
    when ":", "+" then line[1..]
    else raise "redis-server: #{line}"
    end
  end
end
