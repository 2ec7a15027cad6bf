# frozen_string_literal: true

require "nettyrack/jvm_tuning"

RSpec.describe Nettyrack::JvmTuning do
  gib = 1024 * 1024 * 1024

  it "adds every setting to a bare JVM of a recent Java on a big machine" do
    expect(described_class.missing([], 25, 24 * gib, {}, 2))
      .to eq(["-Xmx512m", "-XX:+UseParallelGC",
              "-XX:GCTimeRatio=19", "-Xms64m", "-XX:CICompilerCount=4", "-XX:TrimNativeHeapInterval=5000",
              "-XX:+UseCompactObjectHeaders", "--enable-native-access=ALL-UNNAMED"])
  end

  it "leaves out what needs a newer Java" do
    sized = ["-Xmx512m", "-XX:+UseParallelGC", "-XX:GCTimeRatio=19", "-Xms64m", "-XX:CICompilerCount=4"]
    expect(described_class.missing([], 17, 24 * gib, {}, 2)).to eq(sized)
    expect(described_class.missing([], 21, 24 * gib, {}, 2)).to eq(sized)
  end

  it "gives the heap at most half of the memory the machine or container has" do
    expect(described_class.missing([], 17, gib / 2, {}, 2).grep(/Xmx/)).to eq(["-Xmx256m"])
    expect(described_class.missing([], 17, 1000 * 1024 * 1024, {}, 8))
      .to eq(["-Xmx500m", "-XX:+UseParallelGC", "-XX:GCTimeRatio=19", "-Xms64m"])
  end

  it "compiles with C1 only in a container of 768 MB or less on Java 21 and older, unless the user chose a tier" do
    expect(described_class.missing([], 21, 768 * 1024 * 1024, {})).to include("-XX:TieredStopAtLevel=1")
    expect(described_class.missing([], 17, gib / 2, {}, 2)).to eq(["-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=2"])
    expect(described_class.missing([], 21, 769 * 1024 * 1024, {})).not_to include("-XX:TieredStopAtLevel=1")
    expect(described_class.missing([], 21, gib / 2, "JRUBY_OPTS" => "-J-XX:TieredStopAtLevel=4"))
      .not_to include("-XX:TieredStopAtLevel=1")
    expect(described_class.missing(["-XX:-TieredCompilation"], 21, gib / 2, {})).not_to include("-XX:TieredStopAtLevel=1")
  end

  it "keeps C2 in a small container from Java 22, its compilations, code cache and heap bounded" do
    expect(described_class.missing([], 25, gib / 2, "JAVA_OPTS" => "-Xmx300m -Xss512k -XX:CICompilerCount=2")).to eq(
      ["-XX:CompileCommand=quiet", "-XX:CompileCommand=MemLimit,*.*,32m", "-XX:ReservedCodeCacheSize=80m",
       "-XX:MaxHeapFreeRatio=20", "-XX:MinHeapFreeRatio=10", "-XX:TrimNativeHeapInterval=5000",
       "-XX:+UseCompactObjectHeaders", "--enable-native-access=ALL-UNNAMED"]
    )
    expect(described_class.missing([], 22, 768 * 1024 * 1024, {}, 16)).to include("-XX:CICompilerCount=2")
    expect(described_class.missing([], 25, 24 * gib, {}).grep(/ReservedCodeCache|HeapFreeRatio/)).to eq([])
    expect(described_class.missing(["-XX:ReservedCodeCacheSize=128m"], 25, gib / 2, {}).grep(/ReservedCodeCache/))
      .to eq([])
    expect(described_class.missing(["-XX:CompileCommand=MemLimit,*.*,64m"], 25, gib / 2, {}).grep(/CompileCommand/))
      .to eq([])
  end

  it "bounds each JIT compilation's memory to 32 MB from Java 22 below 2 GB of memory, and not from 2 GB" do
    expect(described_class.missing([], 22, 768 * 1024 * 1024, {})).to include("-XX:CompileCommand=MemLimit,*.*,32m")
    expect(described_class.missing([], 25, 2 * gib - 1, {})).to include("-XX:CompileCommand=quiet", "-XX:CompileCommand=MemLimit,*.*,32m")
    expect(described_class.missing([], 25, 2 * gib, {}).grep(/CompileCommand/)).to eq([])
    expect(described_class.missing([], 25, 24 * gib, {}).grep(/CompileCommand/)).to eq([])
    expect(described_class.missing([], 21, gib, {}).grep(/CompileCommand/)).to eq([])
  end

  it "collects with the parallel collector above 768 MB, unless the user chose a collector" do
    expect(described_class.missing([], 25, 769 * 1024 * 1024, {})).to include("-XX:+UseParallelGC")
    expect(described_class.missing([], 25, 768 * 1024 * 1024, {}).grep(/GC\z/)).to eq([])
    expect(described_class.missing(["-XX:+UseG1GC"], 25, 24 * gib, {})).not_to include("-XX:+UseParallelGC")
    expect(described_class.missing([], 25, 24 * gib, "JAVA_OPTS" => "-XX:+UseZGC")).not_to include("-XX:+UseParallelGC")
    expect(described_class.missing([], 25, 24 * gib, "JRUBY_OPTS" => "-J-XX:+UseSerialGC")).not_to include("-XX:+UseParallelGC")
    expect(described_class.missing(["-XX:+UseStringDeduplication"], 25, 24 * gib, {})).to include("-XX:+UseParallelGC")
  end

  it "keeps the parallel collector's heap small (5 % GC time goal, 64 MB start) unless the user sized the heap" do
    expect(described_class.missing([], 25, 24 * gib, {})).to include("-XX:GCTimeRatio=19", "-Xms64m")
    expect(described_class.missing([], 25, gib / 2, {}).grep(/GCTimeRatio|Xms/)).to eq([])
    ["-XX:+UseG1GC", "-Xmx2g", "-XX:MaxRAMPercentage=50"].each do |chosen|
      expect(described_class.missing([chosen], 25, 24 * gib, {}).grep(/GCTimeRatio|Xms/)).to eq([]), chosen
    end
    expect(described_class.missing([], 25, 24 * gib, "JAVA_OPTS" => "-XX:GCTimeRatio=4")).not_to include("-XX:GCTimeRatio=19")
    expect(described_class.missing([], 25, 24 * gib, "JRUBY_OPTS" => "-J-Xms256m")).not_to include("-Xms64m")
    expect(described_class.missing([], 25, 24 * gib, "JAVA_OPTS" => "-XX:InitialRAMPercentage=5")).not_to include("-Xms64m")
  end

  it "starts four JIT compiler threads on up to 4 cores outside small containers, unless the user chose" do
    expect(described_class.missing([], 25, 24 * gib, {}, 4)).to include("-XX:CICompilerCount=4")
    expect(described_class.missing([], 25, 24 * gib, {}, 8).grep(/CICompilerCount/)).to eq([])
    expect(described_class.missing([], 25, gib / 2, {}, 2).grep(/CICompilerCount/)).to eq(["-XX:CICompilerCount=2"])
    expect(described_class.missing([], 25, 24 * gib, { "JAVA_OPTS" => "-XX:CICompilerCount=2" }, 2)
      .grep(/CICompilerCount/)).to eq([])
  end

  it "trims the C library's heap every 5 s on Java 22+, unless the user set an interval" do
    expect(described_class.missing([], 22, 24 * gib, {})).to include("-XX:TrimNativeHeapInterval=5000")
    expect(described_class.missing([], 21, 24 * gib, {}).grep(/Trim/)).to eq([])
    expect(described_class.missing(["-XX:TrimNativeHeapInterval=0"], 25, 24 * gib, {}).grep(/Trim/)).to eq([])
  end

  it "adds nothing of a family the user set, however: JVM arguments, JAVA_OPTS, JRUBY_OPTS" do
    expect(described_class.missing(["-Xmx300m"], 25, 24 * gib, {})).not_to include("-Xmx512m")
    expect(described_class.missing([], 25, 24 * gib, "JAVA_OPTS" => "-Xss512k -XX:MaxRAMPercentage=75"))
      .not_to include("-Xmx512m")
    expect(described_class.missing([], 25, 24 * gib, "JRUBY_OPTS" => "--dev -J-XX:MaxHeapSize=1g")).not_to include("-Xmx512m")
    expect(described_class.missing(["-XX:-UseCompactObjectHeaders"], 25, 24 * gib, {}))
      .not_to include("-XX:+UseCompactObjectHeaders")
  end

  it "counts JRuby's own native access for its module as not covering Netty's jars" do
    expect(described_class.missing(["--enable-native-access=org.jruby.dist"], 25, 24 * gib, {}))
      .to include("--enable-native-access=ALL-UNNAMED")
    expect(described_class.missing(["--enable-native-access=ALL-UNNAMED"], 25, 24 * gib, {}))
      .not_to include("--enable-native-access=ALL-UNNAMED")
  end

  it "adds nothing when told not to, or in the JVM it started itself" do
    expect(described_class.missing([], 25, 24 * gib, "NETTYRACK_JVM" => "off")).to eq([])
    expect(described_class.missing([], 25, 24 * gib, described_class::MARK => "1")).to eq([])
  end

  it "passes the settings on through JRUBY_OPTS, ahead of the user's, and marks the JVM" do
    env = described_class.environment(["-Xmx512m", "-XX:+UseCompactObjectHeaders"], "JRUBY_OPTS" => "--dev")
    expect(env).to eq("JRUBY_OPTS" => "-J-Xmx512m -J-XX:+UseCompactObjectHeaders --dev", described_class::MARK => "1",
                      "MALLOC_ARENA_MAX" => "2", "_JAVA_SR_SIGNUM" => "30")
  end

  it "starts bin/nettyrack again with the settings in JRUBY_OPTS" do
    env, *command = described_class.relaunch(["-Xmx512m"], { "JRUBY_OPTS" => "--dev" }, %w[-p 3000])
    expect(env).to include("JRUBY_OPTS" => "-J-Xmx512m --dev", described_class::MARK => "1")
    expect(command).to eq([RbConfig.ruby, File.expand_path($PROGRAM_NAME), "-p", "3000"])
  end

  it "starts an executable WAR's JVM again with the settings after its own flags, JRUBY_OPTS untouched" do
    war = { "NETTYRACK_WAR" => "/srv/app.war", "JRUBY_OPTS" => "--dev" }
    env, java, *rest = described_class.relaunch(["-Xmx512m"], war, %w[-p 3000])
    expect(env).to eq(described_class::MARK => "1", "MALLOC_ARENA_MAX" => "2", "_JAVA_SR_SIGNUM" => "30")
    expect(java).to eq(File.join(ENV_JAVA["java.home"], "bin", "java"))
    own = described_class.current.first
    expect(rest).to eq([*own, "-Xmx512m", "-jar", "/srv/app.war", "-p", "3000"])
  end

  it "counts only the WAR's java command line as given, not JAVA_OPTS it never read" do
    war = { "NETTYRACK_WAR" => "/srv/app.war", "JAVA_OPTS" => "-Xmx300m" }
    expect(described_class.missing([], 25, 24 * gib, war)).to include("-Xmx512m")
    expect(described_class.missing(["-Xmx300m"], 25, 24 * gib, war)).not_to include("-Xmx512m")
  end

  it "moves HotSpot's thread suspension off SIGUSR2, the hot restart's signal, unless the user chose one" do
    expect(described_class.environment([], {})).to include("_JAVA_SR_SIGNUM" => "30")
    expect(described_class.environment([], "_JAVA_SR_SIGNUM" => "31")).to include("_JAVA_SR_SIGNUM" => "31")
  end

  it "limits glibc's malloc arenas to 2, unless the user set a number" do
    expect(described_class.environment([], {})).to include("MALLOC_ARENA_MAX" => "2")
    expect(described_class.environment([], "MALLOC_ARENA_MAX" => "8")).to include("MALLOC_ARENA_MAX" => "8")
  end

  it "tunes servers only, not nettyrack ctl, nettyrack war, --help or --version" do
    expect([%w[-p 3000 config.ru], [], %w[ctl stats], %w[war app], %w[--help], %w[-v]].map { |argv| described_class.serving?(argv) })
      .to eq([true, true, false, false, false, false])
  end

  it "names its memory profile and why on the boot line, when bin/nettyrack started the JVM with its settings" do
    tuned = { described_class::MARK => "1" }
    expect(described_class.profile(tuned, memory: gib / 2, machine: 24 * gib)).to eq("memory profile small (512 MB container)")
    expect(described_class.profile(tuned, memory: 24 * gib, machine: 24 * gib)).to eq("memory profile standard (24 GB machine)")
    expect(described_class.profile(tuned, memory: 2 * gib, machine: 24 * gib)).to eq("memory profile standard (2 GB container)")
    expect(described_class.profile(tuned, memory: gib, machine: 24 * gib)).to eq("memory profile medium (1 GB container)")
    expect(described_class.profile(tuned, memory: gib, machine: gib)).to eq("memory profile medium (1 GB machine)")
    expect(described_class.profile({}, memory: gib / 2, machine: 24 * gib)).to be_nil
  end

  it "reads the running JVM" do
    args, version, memory = described_class.current
    expect(args).to all(be_a(String))
    expect(version).to be >= 17
    expect(memory).to be > 64 * 1024 * 1024
  end
end
