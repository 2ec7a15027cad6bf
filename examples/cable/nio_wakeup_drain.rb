# frozen_string_literal: true

require "nio"

# A fix for nio4r's pure-Ruby selector (NIO4R_PURE=true), which this example runs ActionCable
# on. NIO::Selector#wakeup writes a byte to a pipe that #select watches, and #select empties it
# with `@wakeup.read(@wakeup.stat.size)`; on Linux a pipe's stat.size is 0 (on MRI too), so the
# byte stays, the pipe stays readable, and after the first wake-up every select returns at once:
# ActionCable's event-loop thread spins a core for as long as the process lives. Seen with
# nio4r 2.5.8 (Debian bookworm's). Prepended, #select empties the pipe itself after each call.
#
# Losing no wake-up: a thread queues its work before it wakes the selector, so a byte eaten here
# belongs to work that the selecting thread picks up before it selects again (ActionCable's
# event loop runs its queue at the top of every turn).
module NioWakeupDrain
  def select(timeout = nil, &block)
    ready = super
    drain_wakeups
    ready
  end

  private

  def drain_wakeups
    nil while !@wakeup.closed? && @wakeup.read_nonblock(4096, exception: false).is_a?(String)
  rescue IOError
    nil # closed by #close on another thread meanwhile
  end
end

NIO::Selector.prepend(NioWakeupDrain) if NIO.engine == "ruby"
