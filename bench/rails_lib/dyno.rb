# frozen_string_literal: true

# A memory limit like a Heroku dyno's, made as a memory cgroup (v1, or v2 with the memory
# controller) when this machine lets us (root, a writable cgroup file system); nil otherwise.
# Inside it the JVM sees the dyno's memory as a container limit and sizes itself as it would
# on Heroku (the JVM picks its collector and default heap from it, as does bin/nettyrack's
# tuning), and the kernel kills the process when it goes past the limit, as Heroku's R15 does.
class Dyno
  V1 = "/sys/fs/cgroup/memory"
  V2 = "/sys/fs/cgroup"

  attr_reader :limit_mb

  def self.create(name, limit_mb)
    dir, version = place(name)
    return nil unless dir

    Dir.mkdir(dir)
    new(dir, version, limit_mb)
  rescue SystemCallError
    nil
  end

  def self.place(name)
    if File.writable?(V1) && File.exist?(File.join(V1, "memory.limit_in_bytes"))
      [File.join(V1, name), 1]
    elsif File.writable?(V2) && File.read(File.join(V2, "cgroup.controllers")).split.include?("memory")
      [File.join(V2, name), 2]
    end
  rescue SystemCallError
    nil
  end

  def initialize(dir, version, limit_mb)
    @dir = dir
    @version = version
    @limit_mb = limit_mb
    File.write(file(:limit), (limit_mb * 1024 * 1024).to_s)
    File.write(File.join(dir, "memory.swappiness"), "0") if version == 1 # no swap escape hatch
  rescue SystemCallError
    nil
  end

  # argv that joins the cgroup, then runs +argv+ (same pid from there on).
  def wrap(argv)
    ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', File.join(@dir, "cgroup.procs"), *argv]
  end

  # The most the group used (resident memory and page cache), in MB.
  def peak_mb
    Integer(File.read(file(:peak)).strip) / (1024 * 1024)
  rescue SystemCallError, ArgumentError
    nil
  end

  # Processes the kernel killed for going past the limit.
  def oom_kills
    text = File.read(@version == 1 ? File.join(@dir, "memory.oom_control") : File.join(@dir, "memory.events"))
    text[/^oom_kill (\d+)/, 1].to_i
  rescue SystemCallError
    0
  end

  def remove
    Dir.rmdir(@dir)
  rescue SystemCallError
    nil
  end

  private

  def file(what)
    names = { limit: %w[memory.limit_in_bytes memory.max], peak: %w[memory.max_usage_in_bytes memory.peak] }
    File.join(@dir, names.fetch(what)[@version - 1])
  end
end
