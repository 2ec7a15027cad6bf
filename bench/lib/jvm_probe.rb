# frozen_string_literal: true

require "etc"
require "fileutils"
require_relative "report"

# What may differ between two runs of the same build, read from outside the servers so that
# they run as they would without the bench: the machine (CPU model, the instruction-set
# extensions HotSpot's JIT compiles for, cores, memory, kernel) and, for each JVM server, the
# flags its JVM chose and what its JIT did: methods compiled, compilations that stopped
# (bailouts: at a per-compilation memory bound among others), dependencies invalidated,
# deoptimizations, JIT time and the code cache. Read with the JDK's jcmd.
#
#   machine = BenchJvm.machine                       # once per run
#   watch = BenchJvm::Watch.attach(pid, dir, name)   # after the server answers; nil for a non-JVM
#   watch.mark("warm")                               # snapshots at the points the report compares
#   BenchJvm.jit_line(watch.marks)                   # the report's words
module BenchJvm
  # Extensions that change what C2 emits (vectorized loops, intrinsics for String, CRC, crypto).
  FEATURES = %w[sse4_2 avx avx2 avx512f avx512bw avx512vl bmi2 sha_ni vaes erms fsrm].freeze
  COUNTERS = {
    "compiles" => "sun.ci.totalCompiles", "bailouts" => "sun.ci.totalBailouts",
    "invalidates" => "sun.ci.totalInvalidates", "jit_ticks" => "java.ci.totalTime",
    "tick_hz" => "sun.os.hrt.frequency"
  }.freeze

  module_function

  def machine
    cpuinfo = File.read("/proc/cpuinfo")
    flags = cpuinfo[/^flags\s*:\s*(.*)$/, 1].to_s.split
    { "cpu" => cpuinfo[/^model name\s*:\s*(.*)$/, 1].to_s.strip, "cores" => Etc.nprocessors,
      "features" => FEATURES.select { |f| flags.include?(f) },
      "memory_gb" => (File.read("/proc/meminfo")[/MemTotal:\s+(\d+)/, 1].to_i / 1024.0 / 1024).round,
      "kernel" => File.read("/proc/sys/kernel/osrelease").strip }
  rescue SystemCallError
    {}
  end

  def machine_line(m)
    return "machine: unknown" if m.empty?

    "#{m['cpu']}, #{m['cores']} cores, #{m['memory_gb']} GB, kernel #{m['kernel']}; " \
      "extensions: #{m['features'].empty? ? 'none of ' + FEATURES.join(' ') : m['features'].join(' ')}"
  end

  # The report's lines: the machine, then each row's (a bench's result Hash with a "jvm" entry,
  # Watch#to_h) JIT line and flags.
  def report_lines(machine, rows)
    lines = ["Machine: #{machine_line(machine || {})}.", ""]
    rows.select { |row| row["jvm"] }.each do |row|
      lines << "- #{row['server']}: #{jit_line(row['jvm']['marks'])}" << "  flags: `#{row['jvm']['flags']}`"
    end
    lines
  end

  # "18,616 compilations (47 bailouts, 0 invalidated), 1,206 deoptimizations, JIT 60.3 s, code
  # cache 48 MB; after warm-up: 7 compilations, 2 deoptimizations"
  def jit_line(marks)
    last = marks.values.last
    return "JIT: not read (no jcmd, or not a JVM)" unless last

    first = marks.values.first
    text = "#{num(last['compiles'])} compilations (#{num(last['bailouts'])} bailouts, " \
           "#{num(last['invalidates'])} invalidated), #{num(last['deopts'])} deoptimizations, " \
           "JIT #{last['jit_s']} s, code cache #{last['code_cache_mb']} MB"
    return text if marks.size < 2

    "#{text}; after #{marks.keys.first}: #{num(last['compiles'] - first['compiles'])} compilations, " \
      "#{num(last['deopts'] - first['deopts'])} deoptimizations"
  end

  def num(value) = BenchReport.num(value.to_i)

  def jcmd
    home = ENV.fetch("JAVA_HOME", nil)
    tool = home && File.join(home, "bin", "jcmd")
    tool && File.executable?(tool) ? tool : "jcmd"
  end

  # One JVM watched: its flags once, and JIT snapshots by name.
  class Watch
    attr_reader :pid, :flags, :marks

    # pid: the server's process (or its group's leader); the JVM is it or one of its children.
    # dir/name: where its deoptimization log goes. nil when none of them is a JVM (Puma).
    # log: false reads the deoptimizations of an earlier attach to the same dir and name.
    def self.attach(pid, dir, name, log: true)
      jvms = BenchJvm.jvm_pids
      java = ([pid] + children(pid)).find { |p| jvms.include?(p) }
      java && new(java, File.join(dir, "#{name}-deopt.log"), log: log)
    end

    def self.children(pid)
      `ps -e -o pid=,ppid=,pgid=`.lines.map { |l| l.split.map(&:to_i) }
                                     .select { |p, pp, pg| p != pid && (pp == pid || pg == pid) }.map(&:first)
    end

    def initialize(pid, log_file, log: true)
      @pid = pid
      @log = log_file
      @marks = {}
      if log
        FileUtils.rm_f(log_file)
        # Unified logging turned on in the running JVM: one line per deoptimization, counted at each mark.
        BenchJvm.run(pid, "VM.log", "output=file=#{log_file}", "what=deoptimization=debug", "decorators=uptime")
      end
      @flags = BenchJvm.run(pid, "VM.flags").to_s.lines.drop(1).join(" ").split.join(" ")
    end

    def mark(name)
      counters = BenchJvm.run(@pid, "PerfCounter.print").to_s
      values = COUNTERS.transform_values { |key| counters[/^#{Regexp.escape(key)}=(\d+)/, 1].to_i }
      cache = BenchJvm.run(@pid, "Compiler.codecache").to_s[/CodeCache: size=\d+Kb,? used=(\d+)Kb/, 1].to_i
      @marks[name] = {
        "compiles" => values["compiles"], "bailouts" => values["bailouts"], "invalidates" => values["invalidates"],
        "jit_s" => (values["jit_ticks"].to_f / [values["tick_hz"], 1].max).round(1),
        "code_cache_mb" => cache / 1024, "deopts" => BenchJvm.deopts(@log)
      }
    end

    def to_h = { "pid" => @pid, "flags" => @flags, "marks" => @marks }
  end

  # Deoptimizations in a `deoptimization=debug` log. HotSpot may write one trap more than once;
  # the same line twice is one deoptimization.
  def deopts(log)
    File.foreach(log).select { |line| line.include?("trap_bci=") }.uniq.size
  rescue SystemCallError
    0
  end

  # The pids of the JVMs running here, as `jcmd -l` lists them from their performance data files.
  # Only these are ever attached to: attaching to any other process sends it SIGQUIT and waits
  # 5-10 s for an answer that never comes.
  def jvm_pids
    out = IO.popen([jcmd, "-l"], err: File::NULL, &:read)
    $?.success? ? out.lines.filter_map { |line| Integer(line[/\A\d+/], exception: false) } : []
  rescue SystemCallError
    []
  end

  # jcmd's answer for +pid+, or nil when it failed (gone, no jcmd).
  def run(pid, *command)
    out = IO.popen([jcmd, pid.to_s, *command], err: %i[child out], &:read)
    $?.success? && !out.include?("Exception") ? out : nil
  rescue SystemCallError
    nil
  end
end

# bench/run's door (a shell script cannot keep a Watch):
#   ruby jvm_probe.rb machine                 the machine line
#   ruby jvm_probe.rb attach PID DIR NAME     start counting deoptimizations
#   ruby jvm_probe.rb jit PID DIR NAME        the JIT line, then the flags line
if $PROGRAM_NAME == __FILE__
  case ARGV
  in ["machine"] then puts BenchJvm.machine_line(BenchJvm.machine)
  in ["attach", pid, dir, name] then BenchJvm::Watch.attach(Integer(pid), dir, name)
  in ["jit", pid, dir, name]
    watch = BenchJvm::Watch.attach(Integer(pid), dir, name, log: false)
    watch&.mark("runs")
    puts BenchJvm.jit_line(watch ? watch.marks : {}), watch&.flags.to_s
  else abort "usage: jvm_probe.rb machine | attach PID DIR NAME | jit PID DIR NAME"
  end
end
