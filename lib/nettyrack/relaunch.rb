# frozen_string_literal: true

require "java"
require "rbconfig"

module Nettyrack
  # How to start this server's program once more, for bin/nettyrack's own start with the JVM
  # settings it lacks (JvmTuning, same pid) and for a hot restart (HotRestart, a new process):
  #
  #   jruby -S nettyrack ARGS, bundle exec nettyrack ARGS   RbConfig.ruby bin/nettyrack ARGS
  #   java [JVM flags] -jar app.war ARGS                    java [JVM flags] -jar app.war ARGS
  #
  # The executable WAR's launcher (org.nettyrack.war.WarMain) says which WAR it runs in
  # $NETTYRACK_WAR, and where it unpacked it in $NETTYRACK_WAR_UNPACKED: a JVM started in the
  # same process takes that directory over instead of unpacking again. A JVM's flags are its
  # command line's there, not JRUBY_OPTS, which the WAR's JRuby does not pass to any JVM.
  module Relaunch
    WAR = "NETTYRACK_WAR"
    UNPACKED = "NETTYRACK_WAR_UNPACKED"

    module_function

    # [program, *arguments] that run +argv+ as this process was started; jvm_flags go to the
    # JVM of an executable WAR, after the flags this JVM has.
    def command(argv, env: ENV, program: $PROGRAM_NAME, jvm_flags: [])
      if war?(env)
        [java_program, *jvm_arguments, *jvm_flags, "-jar", env[WAR], *argv]
      else
        [RbConfig.ruby, File.expand_path(program), *argv]
      end
    end

    def war?(env)
      !env[WAR].to_s.empty?
    end

    def java_program
      File.join(ENV_JAVA["java.home"], "bin", "java")
    end

    def jvm_arguments
      Java::JavaLangManagement::ManagementFactory.getRuntimeMXBean.getInputArguments.to_a
    end
  end
end
