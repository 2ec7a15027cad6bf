# frozen_string_literal: true

module Nettyrack
  # The table JvmTuning.missing reads: each JVM flag nettyrack adds at start, with the family
  # that counts as "already set" and why (measured on the Rails example). bin/nettyrack →
  # JvmTuning.missing (deciding, with these rows) → Relaunch (exec) → the tuned JVM.
  module JvmTuning
    # [family pattern (what counts as "already set"), the setting (or a block of the memory the
    # JVM may use, in bytes, and its cores giving it, or nil; one flag or several), the oldest
    # and newest Java it is for]
    # A block may also take the flags the user gave (a setting that only makes sense beside
    # another of ours looks there).
    Setting = Struct.new(:family, :flag, :min_java, :max_java) do
      # The flags (none, one or several) for this machine.
      def for_machine(bytes, cores, given)
        Array(flag.respond_to?(:call) ? flag.call(bytes, cores, given) : flag)
      end

      def for_java?(version)
        version >= min_java && (max_java.nil? || version <= max_java)
      end
    end

    MIB = 1024 * 1024
    HEAP_CAP = 512 * MIB
    SMALL_MEMORY = 768 * MIB
    # Below this much memory each JIT compilation's arenas are bounded (the MemLimit row).
    COMPILE_BOUND_BELOW = 2048 * MIB

    HEAP_FAMILY = /\A-Xmx|\A-XX:MaxHeapSize=|MaxRAMPercentage|\A-XX:MaxRAM=/
    GC_FAMILY = /\A-XX:\+Use(Serial|Parallel|G1|Z|Shenandoah|Epsilon)GC\z/

    # Whether the user picked a collector or sized the heap (then the heap's growth is theirs:
    # a start of 64 MB could exceed their maximum).
    def self.heap_chosen?(given)
      given.any? { |arg| GC_FAMILY.match?(arg) || HEAP_FAMILY.match?(arg) }
    end

    # Whether the heap is ours to size: the parallel collector is our choice (above 768 MB) and
    # the user chose neither a collector nor a heap size.
    def self.sizing_heap?(memory, given)
      memory > SMALL_MEMORY && !heap_chosen?(given)
    end

    SETTINGS = [
      # The JVM's default heap is a quarter of the machine's memory (6 GB on a 24 GB box), and
      # G1 grows into it: the Rails example sat at 730-950 MB RSS with an 83 MB live set. At most
      # 512 MB, and at most half of what the machine or container gives (a 512 MB Heroku dyno:
      # 256 MB, where Heroku's own JAVA_OPTS say -Xmx300m, which then wins).
      Setting.new(HEAP_FAMILY,
                  ->(memory, _cores, _given) { "-Xmx#{[HEAP_CAP, memory / 2].min / MIB}m" }, 8),
      # In a container of 768 MB or less (a 512 MB Heroku dyno) on Java 21 or older, C1 only:
      # C2's compilations of JRuby's code took the Rails example past a 512 MB memory cgroup
      # within 30-80 s of load, with Heroku's own -Xmx300m. From Java 22 a compilation's memory
      # can be bounded (MemLimit, below), and C2 stays: side by side in a 512 MB cgroup,
      # 4,000-4,400 req/s after 150 s against C1's 1,160.
      Setting.new(/TieredStopAtLevel|TieredCompilation/,
                  ->(memory, _cores, _given) { "-XX:TieredStopAtLevel=1" if memory <= SMALL_MEMORY }, 8, 21),
      # Below 2 GB of memory, at most 32 MB of arenas per JIT compilation (Java 22+); a
      # compilation that needs more stops, and its method stays at the tier it has. Unbounded,
      # C2's compilations of JRuby's code took arenas of up to 377 MB at once (NMT's peak, the
      # Rails example under load with four compiler threads), which a 512 MB container cannot
      # hold beside the heap; with the bound, 34-37 MB. The bound costs throughput, though: the
      # largest of Rails' compilations needs 113 MB, and the methods whose compilation stops
      # stay slower (the warm Rails example, one run after another on a 24 GB machine: 7,460 req/s
      # on average bounded at 32 MB, 8,066 unbounded, 3 and 4 runs). From 2 GB the spike fits
      # beside a 512 MB heap: no bound.
      # `quiet`: the JVM would print the command on stdout at start.
      Setting.new(/MemLimit/,
                  lambda do |memory, _cores, _given|
                    ["-XX:CompileCommand=quiet", "-XX:CompileCommand=MemLimit,*.*,32m"] if memory < COMPILE_BOUND_BELOW
                  end, 22),
      # In a small container, the code cache at 80 MB (240 MB by default): the Rails example
      # filled 89 MB unbounded and 60 MB bounded, never full (with the heap setting below, in a
      # 512 MB cgroup: 4,000-4,360 req/s against 4,080-4,600 without either, one run each).
      Setting.new(/ReservedCodeCacheSize/,
                  ->(memory, _cores, _given) { "-XX:ReservedCodeCacheSize=80m" if memory <= SMALL_MEMORY }, 22),
      # In a small container, the heap the serial collector keeps close to what is live: it
      # shrinks when more than 20 % is free after a collection (70 % by default) and grows when
      # less than 10 % is. The Rails example (an 83 MB live set) committed 139 MB of heap
      # instead of 207 MB under Heroku's -Xmx300m, which stays the ceiling.
      Setting.new(/HeapFreeRatio/,
                  lambda do |memory, _cores, _given|
                    %w[-XX:MaxHeapFreeRatio=20 -XX:MinHeapFreeRatio=10] if memory <= SMALL_MEMORY
                  end, 22),
      # The parallel collector where the JVM would pick G1 (more than 768 MB): in three side-by-
      # side runs on the Rails example under 100 clients it spent 15-30 % less CPU per request
      # once warm than G1 (whose write barriers and concurrent marking JRuby's allocation rate
      # pays for), warmed up sooner, had the lower p99, and about the same RSS. The heap is capped
      # above, so its full collections stay short. In 768 MB or less the JVM's own choice for
      # small machines (the serial collector) stays.
      Setting.new(GC_FAMILY,
                  ->(memory, _cores, _given) { "-XX:+UseParallelGC" if memory > SMALL_MEMORY }, 8),
      # With the parallel collector chosen above, the heap it keeps: its default goal of at most
      # 1 % of the time in GC grows the heap towards -Xmx (the Rails example, an 83 MB live set,
      # committed 385 MB of heap and sat at 490-515 MB RSS), and it starts at 1/64 of the
      # machine's memory (384 MB on 24 GB) and never shrinks below that. A goal of 5 % (G1's own
      # is about 8 %) from a 64 MB start: side by side under 100 clients, 129 MB of heap and
      # 383-390 MB RSS, at the same req/s and CPU per request.
      Setting.new(/GCTimeRatio/,
                  ->(memory, _cores, given) { "-XX:GCTimeRatio=19" if sizing_heap?(memory, given) }, 8),
      Setting.new(/\A-Xms|InitialHeapSize|InitialRAMPercentage/,
                  ->(memory, _cores, given) { "-Xms64m" if sizing_heap?(memory, given) }, 8),
      # Four JIT compiler threads where the JVM would start two or three (up to 4 cores), outside
      # small containers: warm-up is C2 compiling JRuby's code while the workers take the cores,
      # and more compiler threads get it more of them. Side by side on the Rails example under
      # load, 2,562 req/s in the sixth round against 625 with the JVM's two; warm, the same. They
      # sit idle once the code is compiled. In a small container two (one C1, one C2) however
      # many cores the host shows, so that one C2 compilation at a time holds arenas.
      Setting.new(/CICompilerCount/,
                  lambda do |memory, cores, _given|
                    if memory <= SMALL_MEMORY then "-XX:CICompilerCount=2"
                    elsif cores <= 4 then "-XX:CICompilerCount=4"
                    end
                  end, 8),
      # Gives the C library's free memory back to the system every 5 s. C2's compilations malloc
      # arenas of up to 60 MB and free them, and glibc keeps the pages: side by side, the Rails
      # example under load held 757 MB RSS with four compiler threads and 499 MB with this, at
      # the same req/s (420 MB against 450-470 with the JVM's two compiler threads).
      Setting.new(/TrimNativeHeapInterval/, "-XX:TrimNativeHeapInterval=5000", 22),
      # 8-byte object headers instead of 12-16 (a product feature since Java 25): less heap.
      Setting.new(/UseCompactObjectHeaders/, "-XX:+UseCompactObjectHeaders", 25),
      # Netty loads its native transport; Java 22+ warns at boot unless told this is intended.
      Setting.new(/\A--enable-native-access=.*ALL-UNNAMED/, "--enable-native-access=ALL-UNNAMED", 22)
    ].freeze
  end
end
