# frozen_string_literal: true

require "fileutils"
require "socket"
require "tmpdir"
require_relative "deadline"

# A real proxy in front of a server under test: sending the PROXY protocol, Debian's nginx
# (stream module, `proxy_protocol on`: v1) or HAProxy (`send-proxy-v2`: v2, with LOCAL health
# checks); or nginx's HTTP proxy to a unix socket, WebSocket upgrades passed on, with the
# server block the README recommends (NGINX_UNIX_LOCATION). Each runs in the foreground on a
# free 127.0.0.1 port, from a config in a temp dir:
#
#   proxy = StreamProxy.nginx(backend_port)     # skip the spec unless StreamProxy.nginx?
#   proxy = StreamProxy.nginx_unix("/tmp/x/app.sock")  # unless StreamProxy.nginx_http?
#   proxy = StreamProxy.haproxy(backend_port, health_check: "/health")
#   proxy.port                                  # clients connect here
#   proxy.stop
class StreamProxy
  NGINX_STREAM_MODULE = "/usr/lib/nginx/modules/ngx_stream_module.so"

  def self.binary(name)
    ENV.fetch("PATH", "").split(File::PATH_SEPARATOR).push("/usr/sbin")
       .map { |dir| File.join(dir, name) }.find { |path| File.executable?(path) }
  end

  def self.nginx?
    !binary("nginx").nil? && File.exist?(NGINX_STREAM_MODULE)
  end

  def self.nginx_http?
    !binary("nginx").nil?
  end

  # The README's "Unix sockets" nginx snippet, SOCKET standing for the socket's path.
  NGINX_UNIX_LOCATION = <<~CONF
    location / {
      proxy_pass http://unix:SOCKET:;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
    }
  CONF

  def self.nginx_unix(socket)
    new("nginx") do |port, dir|
      temp = %w[client_body proxy fastcgi uwsgi scgi].map { |kind| "#{kind}_temp_path #{dir}/#{kind};" }
      File.write(File.join(dir, "nginx.conf"), <<~CONF)
        daemon off;
        master_process off;
        pid #{dir}/nginx.pid;
        error_log #{dir}/proxy.log info;
        events { worker_connections 64; }
        http {
          access_log off;
          #{temp.join("\n  ")}
          map $http_upgrade $connection_upgrade { default upgrade; '' close; }
          server {
            listen 127.0.0.1:#{port};
            #{NGINX_UNIX_LOCATION.gsub('SOCKET', socket).gsub("\n", "\n    ")}
          }
        }
      CONF
      [binary("nginx"), "-p", dir, "-c", File.join(dir, "nginx.conf"), "-e", File.join(dir, "proxy.log")]
    end
  end

  def self.haproxy?
    !binary("haproxy").nil?
  end

  def self.nginx(backend)
    new("nginx") do |port, dir|
      File.write(File.join(dir, "nginx.conf"), <<~CONF)
        load_module #{NGINX_STREAM_MODULE};
        daemon off;
        master_process off;
        pid #{dir}/nginx.pid;
        error_log #{dir}/proxy.log info;
        events { worker_connections 64; }
        stream {
          server {
            listen 127.0.0.1:#{port};
            proxy_pass 127.0.0.1:#{backend};
            proxy_protocol on;
          }
        }
      CONF
      [binary("nginx"), "-p", dir, "-c", File.join(dir, "nginx.conf"), "-e", File.join(dir, "proxy.log")]
    end
  end

  # health_check: a path HAProxy GETs every 100 ms over connections of its own, which it
  # opens with a v2 LOCAL header. A check may take up to 5 s and only 100 failures in a row mark
  # the server down: by default a check times out after 100 ms and 3 failures do, and on a busy
  # machine HAProxy then closed the test's own connections unanswered.
  def self.haproxy(backend, health_check: nil)
    new("haproxy") do |port, dir|
      check = health_check ? " check inter 100ms fall 100 rise 1" : ""
      File.write(File.join(dir, "haproxy.cfg"), <<~CONF)
        defaults
          mode tcp
          timeout connect 5s
          timeout client 30s
          timeout server 30s
          timeout check 5s
        frontend clients
          bind 127.0.0.1:#{port}
          default_backend app
        backend app
          #{health_check ? "option httpchk GET #{health_check}" : ''}
          server nettyrack 127.0.0.1:#{backend} send-proxy-v2#{check}
      CONF
      [binary("haproxy"), "-db", "-f", File.join(dir, "haproxy.cfg")]
    end
  end

  attr_reader :port

  def initialize(name)
    @name = name
    @port = TCPServer.open("127.0.0.1", 0) { |server| server.addr[1] }
    @dir = Dir.mktmpdir("nettyrack-#{name}")
    command = yield(@port, @dir)
    @log = File.join(@dir, "proxy.log")
    @pid = Process.spawn(*command, in: File::NULL, out: [@log, "a"], err: [@log, "a"])
    wait_until_listening
  rescue StandardError
    stop
    raise
  end

  def stop
    if @pid
      Process.kill("TERM", @pid)
      exited = Process.detach(@pid)
      unless exited.join(10) # a proxy that ignores TERM must not hold up the suite
        Process.kill("KILL", @pid)
        exited.join(10)
      end
    end
  rescue Errno::ESRCH, Errno::ECHILD
    nil
  ensure
    @pid = nil
    FileUtils.rm_rf(@dir) if @dir
  end

  private

  def wait_until_listening
    limit = Deadline.now + 20
    until accepts?
      raise "#{@name} exited: #{File.read(@log)}" if Process.wait(@pid, Process::WNOHANG)
      raise "#{@name} did not listen: #{File.read(@log)}" if Deadline.now > limit

      IO.select(nil, nil, nil, 0.02)
    end
  end

  def accepts?
    TCPSocket.open("127.0.0.1", @port).close
    true
  rescue SystemCallError
    false
  end
end
