# frozen_string_literal: true

module Nettyrack
  # One line on a stream, flushed at once: what the launcher, a server's Lifetime, `nettyrack
  # ctl` and `nettyrack war` print, so that it is seen in order beside other processes' lines (a
  # hot restart's two processes share one log) and before a slow step. Answers 0: the status of
  # a command that ends by saying something.
  module Say
    def self.line(out, text)
      out.puts(text)
      out.flush
      0
    end
  end
end
