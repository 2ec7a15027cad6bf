# frozen_string_literal: true

# Bounded waits for specs, so that nothing sleeps: reads from pipes with IO.select until a
# deadline, and joins threads with a timeout.
module Deadline
  module_function

  def now
    Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end

  # Reads +io+ into +buffer+ until it matches +pattern+; returns the MatchData, or nil at the
  # deadline or at end of file.
  def read_until(io, buffer, pattern, timeout)
    limit = now + timeout
    loop do
      match = pattern.match(buffer)
      return match if match
      return nil unless read_some(io, buffer, limit)
    end
  end

  # Reads whatever +io+ has (waiting until +limit+); false at end of file or at the deadline.
  def read_some(io, buffer, limit)
    left = limit - now
    return false if left <= 0 || !IO.select([io], nil, nil, left)

    buffer << io.readpartial(65_536)
    true
  rescue EOFError
    false
  end

  # Polls the block until it is truthy and returns its value; raises after +timeout+ seconds.
  def wait_until(timeout:, interval: 0.05)
    limit = now + timeout
    until (result = yield)
      raise "condition not met within #{timeout} s" if now > limit

      sleep interval
    end
    result
  end

  # The value of +thread+, or an error if it has not finished within +timeout+.
  def value(thread, timeout, what = "the thread")
    raise "#{what} did not finish within #{timeout} s" unless thread.join(timeout)

    thread.value
  end
end
