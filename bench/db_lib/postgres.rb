# frozen_string_literal: true

require "etc"
require "fileutils"
require "tmpdir"
require_relative "../rails_lib/servers"

# A throwaway PostgreSQL cluster for bench/db: initdb into a temporary folder, one postmaster on
# 127.0.0.1 (and a unix socket in the same folder), the hello_world database seeded with the
# classic tables (world: 10,000 rows of id and randomnumber; fortune: 12 messages), and a stop
# that ends that postmaster by its pid and removes the folder. As root it runs everything as
# the `postgres` user Debian's package created (initdb refuses root), through setpriv, which
# execs: the pid Process.spawn returns is the postmaster's own.
#
# Settings are the benchmark kind's, for a cluster thrown away after the run: fsync and
# synchronous_commit off (the updates test then measures the server and the driver, not this
# machine's disk), shared_buffers 128 MB (the tables fit), max_connections 300 (every server's
# pool at once).
class BenchPostgres
  BIN = Dir["/usr/lib/postgresql/*/bin"].max_by { |dir| dir[%r{/(\d+)/bin}, 1].to_i }
  DATABASE = "hello_world"
  USER = "bench"
  WORLD_ROWS = 10_000
  SETTINGS = { "fsync" => "off", "synchronous_commit" => "off", "full_page_writes" => "off",
               "shared_buffers" => "128MB", "max_connections" => "300", "listen_addresses" => "127.0.0.1",
               "log_min_messages" => "warning" }.freeze
  # The classic Fortune table (the benchmark kind's data: HTML, quotes and non-Latin text to escape).
  FORTUNES = [
    "fortune: No such file or directory",
    "A computer scientist is someone who fixes things that aren't broken.",
    "After enough decimal places, nobody gives a damn.",
    "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1",
    "A computer program does what you tell it to do, not what you want it to do.",
    "Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen",
    "Any program that runs right is obsolete.",
    "A list is only as strong as its weakest link. — Donald Knuth",
    "Feature: A bug with seniority.",
    "Computers make very fast, very accurate mistakes.",
    '<script>alert("This should not be displayed in a browser alert box.");</script>',
    "フレームワークのベンチマーク"
  ].freeze

  attr_reader :port, :dir, :pid

  # pin: a command prefix for the postmaster (["taskset", "-c", "0"]), which its backends inherit.
  def initialize(log:, pin: [])
    @log = log
    @pin = pin
    @dir = Dir.mktmpdir("nettyrack-bench-db-")
    @port = RailsServers.free_port
  end

  # initdb, start, wait until it accepts connections, create the user, database and tables.
  def start
    raise "no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)" unless BIN

    FileUtils.chown(owner, nil, @dir) if root?
    data = File.join(@dir, "data")
    as_owner("#{BIN}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8")
    settings = SETTINGS.merge("port" => @port.to_s, "unix_socket_directories" => @dir)
    @pid = Process.spawn(*@pin, *owner_prefix, "#{BIN}/postgres", "-D", data, *settings.flat_map { |k, v| ["-c", "#{k}=#{v}"] },
                         out: @log, err: @log, in: File::NULL, pgroup: true)
    wait_until_ready
    seed
    self
  end

  # "postgres://..." for the pg gem, "jdbc:postgresql://..." for the JDBC driver.
  def url(jdbc: false)
    jdbc ? "jdbc:postgresql://127.0.0.1:#{@port}/#{DATABASE}?user=#{USER}" : "postgres://#{USER}@127.0.0.1:#{@port}/#{DATABASE}"
  end

  # CPU seconds (user + system) used so far by the postmaster and its backends (its children:
  # each backend is a process group of its own).
  def cpu_seconds
    ProcessGroup.tree_cpu_seconds(@pid)
  end

  # Fast shutdown (SIGINT: ends the backends, then exits), SIGKILL to the group after 30 s.
  def stop
    return FileUtils.rm_rf(@dir) unless @pid

    begin
      Process.kill("INT", @pid)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 30
      until Process.waitpid(@pid, Process::WNOHANG)
        if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
          Process.kill("KILL", -@pid)
          Process.waitpid(@pid)
          break
        end
        sleep 0.05
      end
    rescue Errno::ESRCH, Errno::ECHILD
      nil
    end
    @pid = nil
    FileUtils.rm_rf(@dir)
  end

  def psql(sql)
    out = IO.popen(["#{BIN}/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", @port.to_s,
                    "-U", "postgres", "-d", DATABASE, "-At", "-c", sql], err: %i[child out], &:read)
    raise "psql failed: #{out}" unless $?.success?

    out
  end

  private

  def seed
    admin("CREATE ROLE #{USER} LOGIN")
    admin("CREATE DATABASE #{DATABASE} OWNER #{USER}")
    values = FORTUNES.each_with_index.map { |message, i| "(#{i + 1}, '#{message.gsub("'", "''")}')" }.join(", ")
    psql(<<~SQL)
      CREATE TABLE world (id integer PRIMARY KEY, randomnumber integer NOT NULL DEFAULT 0);
      INSERT INTO world (id, randomnumber) SELECT x, 1 + floor(random() * 10000)::integer FROM generate_series(1, #{WORLD_ROWS}) x;
      CREATE TABLE fortune (id integer PRIMARY KEY, message varchar(2048) NOT NULL);
      INSERT INTO fortune (id, message) VALUES #{values};
      ALTER TABLE world OWNER TO #{USER};
      ALTER TABLE fortune OWNER TO #{USER};
    SQL
    psql("VACUUM ANALYZE")
  end

  def admin(sql)
    out = IO.popen(["#{BIN}/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", @port.to_s,
                    "-U", "postgres", "-d", "postgres", "-c", sql], err: %i[child out], &:read)
    raise "psql failed: #{out}" unless $?.success?
  end

  def wait_until_ready(timeout: 60)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
    until system("#{BIN}/pg_isready", "-q", "-h", "127.0.0.1", "-p", @port.to_s)
      raise "PostgreSQL exited at start (see #{@log})" if Process.waitpid(@pid, Process::WNOHANG)
      raise "PostgreSQL did not accept connections within #{timeout} s (see #{@log})" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

      sleep 0.2
    end
  end

  def as_owner(*argv)
    out = IO.popen([*owner_prefix, *argv], err: %i[child out], &:read)
    raise "#{File.basename(argv.first)} failed: #{out}" unless $?.success?
  end

  # setpriv execs (no process in between), so Process.spawn's pid is the postmaster's.
  def owner_prefix
    root? ? ["setpriv", "--reuid=#{owner}", "--regid=#{Etc.getpwnam(owner).gid}", "--init-groups", "--"] : []
  end

  def owner = "postgres"

  def root? = Process.uid.zero?
end

# CPU time of a process group, from /proc (user + system of every live member).
module ProcessGroup
  TICK = Etc.sysconf(Etc::SC_CLK_TCK).to_f

  module_function

  def members(pgid)
    Dir["/proc/[0-9]*/stat"].filter_map do |path|
      fields = File.read(path).sub(/\A.*\) /m, "").split
      [path[%r{/proc/(\d+)/}, 1].to_i, fields] if fields[2].to_i == pgid
    rescue Errno::ENOENT, Errno::ESRCH
      nil
    end
  end

  # Fields after "(comm) ": state is [0], ppid [1], pgrp [2], utime [11], stime [12], cutime [13], cstime [14].
  def cpu_seconds(pgid)
    members(pgid).sum { |_, fields| fields[11].to_i + fields[12].to_i } / TICK
  end

  # A parent and its live children, plus the children it has waited for.
  def tree_cpu_seconds(pid)
    ticks = Dir["/proc/[0-9]*/stat"].sum do |path|
      fields = File.read(path).sub(/\A.*\) /m, "").split
      own = path == "/proc/#{pid}/stat"
      next 0 unless own || fields[1].to_i == pid

      fields[11].to_i + fields[12].to_i + (own ? fields[13].to_i + fields[14].to_i : 0)
    rescue Errno::ENOENT, Errno::ESRCH
      0
    end
    ticks / TICK
  end
end
