# frozen_string_literal: true

require_relative "jvm_flags"
require_relative "relaunch"

module Nettyrack
  # The JVM settings nettyrack runs with unless told otherwise (README "Rails and the JVM" says
  # why). They must be set when the JVM starts, so bin/nettyrack starts itself once more with
  # them when the JVM it runs in lacks them (one extra JVM start, before the app loads; in an
  # executable WAR, `java FLAGS -jar app.war` with the flags it was given: Relaunch). A
  # setting the user gave in any form (JAVA_OPTS, JRUBY_OPTS, -J flags, a .jruby.java_opts file,
  # the WAR's java command line) wins: a setting is added only when nothing of its family is
  # there (any -Xmx or MaxRAMPercentage for the heap).
  #
  #   NETTYRACK_JVM=off        run with exactly the JVM you started
  #
  # bin/nettyrack → here (which flags are missing: the rows of jvm_flags.rb against what was
  # given; what this machine has) → Relaunch → the tuned JVM. This file only decides and
  # measures; bin/nettyrack does the exec.
  module JvmTuning
    # Set to "1" in the environment of the JVM started with the settings, so it never re-execs.
    MARK = "NETTYRACK_JVM_TUNED"
    # HotSpot's suspend/resume signal, by number (default SIGUSR2, 12).
    SUSPEND_SIGNAL = "_JAVA_SR_SIGNUM"

    module_function

    # The settings to add, as JVM flags, given the running JVM's arguments, its Java version, the
    # memory the machine or container gives it (bytes), the environment, and the cores it may
    # use; empty when nothing is missing or tuning is off.
    def missing(jvm_args, java_version, memory, env, cores = java.lang.Runtime.getRuntime.availableProcessors)
      return [] if env["NETTYRACK_JVM"].to_s.downcase == "off" || env[MARK] == "1"

      # An executable WAR's JVM was started by `java ... -jar`: only its own arguments count.
      given = Relaunch.war?(env) ? jvm_args : jvm_args + java_flags(env["JAVA_OPTS"]) + java_flags(env["JRUBY_OPTS"])
      SETTINGS.flat_map do |setting|
        next [] unless setting.for_java?(java_version)
        next [] if given.any? { |arg| setting.family.match?(arg) }

        setting.for_machine(memory, cores, given)
      end
    end

    # The boot line's words for the settings this JVM runs with: the profile and why, e.g.
    # "memory profile small (512 MB container)": small up to 768 MB (C2's compilations, code cache
    # and heap bounded), medium below 2 GB (compilations bounded), standard from 2 GB; nil when
    # bin/nettyrack did not start it with its settings (rackup, an embedded server,
    # NETTYRACK_JVM=off, all of them given).
    # machine: the machine's own memory (a container's limit is less).
    def profile(env = ENV, memory: nil, machine: nil)
      return nil unless env[MARK] == "1"

      memory ||= current.last
      machine ||= machine_memory
      size = if memory <= SMALL_MEMORY then "small"
             elsif memory < COMPILE_BOUND_BELOW then "medium"
             else "standard"
             end
      "memory profile #{size} (#{amount(memory)} #{machine && memory < machine ? 'container' : 'machine'})"
    end

    def amount(bytes)
      bytes >= 1024 * MIB ? "#{(bytes.to_f / (1024 * MIB)).round} GB" : "#{bytes / MIB} MB"
    end

    # MemTotal of /proc/meminfo in bytes; nil where there is none.
    def machine_memory
      File.foreach("/proc/meminfo") { |line| return Integer(line[/\d+/]) * 1024 if line.start_with?("MemTotal:") }
      nil
    rescue SystemCallError, ArgumentError, TypeError
      nil
    end

    # Whether these arguments start a server (not `nettyrack ctl ...`, `nettyrack war ...`,
    # --help or --version, which are done long before tuning would pay off).
    def serving?(argv)
      !%w[ctl war].include?(argv.first) && (argv & %w[-h --help -v --version]).empty?
    end

    # What bin/nettyrack execs to run +argv+ in a JVM with +flags+ added: [environment, program,
    # *arguments].
    def relaunch(flags, env, argv)
      if Relaunch.war?(env)
        [environment([], env), *Relaunch.command(argv, env: env, jvm_flags: flags)]
      else
        [environment(flags, env), *Relaunch.command(argv, env: env)]
      end
    end

    # The environment for the JVM that runs with +flags+: JRUBY_OPTS passes them on. Also
    # glibc's malloc arenas, at most 2 unless the user set a number: by default each thread that
    # mallocs may get its own 64 MB arena, and the JVM's many threads (compilers, GC, Netty,
    # workers) keep pages in each. The Rails example under 100 clients held 357-361 MB RSS with
    # 2 against 395-409 MB, at the same req/s.
    #
    # And the signal HotSpot suspends threads with (JFR's sampler does, for every sample): SIGUSR2
    # unless told otherwise, which is nettyrack's hot restart. On SIGUSR2 a JFR recording of a
    # running server started a hot restart and sampled nothing; SIGPWR (30) is free here.
    def environment(flags, env)
      marked = { MARK => "1", "MALLOC_ARENA_MAX" => env["MALLOC_ARENA_MAX"] || "2",
                 SUSPEND_SIGNAL => env[SUSPEND_SIGNAL] || "30" }
      return marked if flags.empty?

      { "JRUBY_OPTS" => [*flags.map { |flag| "-J#{flag}" }, env["JRUBY_OPTS"]].compact.join(" ") }.merge(marked)
    end

    # JVM flags inside JAVA_OPTS or JRUBY_OPTS (the latter's -J prefixed ones).
    def java_flags(text)
      text.to_s.split.map { |word| word.delete_prefix("-J") }
    end

    # The running JVM's arguments, feature version and the memory it sees (a container's
    # limit inside one); only on JRuby.
    def current
      [Relaunch.jvm_arguments, java.lang.Runtime.version.feature,
       java.lang.management.ManagementFactory.getOperatingSystemMXBean.getTotalMemorySize]
    end
  end
end
