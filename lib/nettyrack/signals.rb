# frozen_string_literal: true

require_relative "libc"

module Nettyrack
  # Traps that are never lost. A process started with a signal ignored (a background job of a
  # non-interactive shell ignores INT; nohup ignores HUP; some supervisors ignore more) passes
  # that on to the JVM, and the JVM then refuses to handle INT, TERM and HUP: JRuby's
  # Signal.trap installs nothing, raises nothing, and `kill -INT` does nothing. MRI's trap takes
  # the signal over; so does .trap here, before trapping: where /proc says the signal is
  # ignored, its disposition goes back to the default (libc's signal(2), through JRuby's FFI)
  # so that the JVM's handler can be installed.
  #
  #   Signals.trap("INT") { queue << :stop }   # => the previous handler
  #   Signals.untrappable_lines                 # => lines saying which signals could not be taken over
  #
  # Only signals nettyrack traps are taken over. HUP is one (ReloadSignal): under nohup it is
  # taken over too, which keeps what nohup meant, since nettyrack's HUP never stops the server.
  #
  # Flow: Orders#trap, ReloadSignal → here → the JVM's signal handlers.
  module Signals
    # The signals nettyrack traps, by name, with their numbers on Linux.
    NUMBERS = { "HUP" => 1, "INT" => 2, "USR1" => 10, "USR2" => 12, "TERM" => 15 }.freeze
    STATUS = "/proc/self/status"

    @untrappable = []

    class << self
      # Signal.trap, after taking over an inherited "ignore" of +name+. A signal that cannot be
      # taken over is trapped anyway (harmless) and named in .untrappable.
      def trap(name, handler = nil, &block)
        was_ignored = ignored?(name)
        take_over(name) if was_ignored
        previous = handler ? Signal.trap(name, handler) : Signal.trap(name, &block)
        untrappable(name, "the JVM kept it ignored") if was_ignored && ignored?(name)
        previous
      end

      # "nettyrack: SIGINT was ignored when this process started and could not be taken over
      # (...): it will not reach the server" lines, one per such signal, for the boot output.
      def untrappable_lines
        @untrappable.dup
      end

      # Whether the process ignores +name+ now (the SigIgn mask of /proc/self/status); false
      # where there is no /proc.
      def ignored?(name, status: STATUS)
        number = NUMBERS.fetch(name)
        mask = File.read(status)[/^SigIgn:\s*(\h+)/, 1]
        mask ? mask.to_i(16)[number - 1] == 1 : false
      rescue SystemCallError
        false
      end

      private

      def take_over(name)
        LibC.signal(NUMBERS.fetch(name), LibC::SIG_DFL)
      rescue LoadError, StandardError => e
        untrappable(name, e.message)
      end

      def untrappable(name, why)
        line = "nettyrack: SIG#{name} was ignored when this process started and could not be taken over " \
               "(#{why}): it will not reach the server"
        @untrappable << line unless @untrappable.include?(line)
      end
    end
  end
end
