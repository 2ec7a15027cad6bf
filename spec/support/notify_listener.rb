# frozen_string_literal: true

require "json"
require_relative "deadline"
require_relative "python_clients"

# A stand-in for systemd's notification socket ($NOTIFY_SOCKET), run by Python (JRuby sends and
# receives no unix datagrams): every message a server sends is kept, in order, as an Array of
# its KEY=VALUE lines.
#
#   listener = NotifyListener.new(File.join(dir, "notify"))
#   ... NOTIFY_SOCKET => listener.path ...
#   listener.wait_for { |msg| msg.include?("READY=1") }   # => that message, within a bound
#   listener.close
class NotifyListener
  attr_reader :path, :messages

  def initialize(path, timeout: 600)
    @path = path
    @io = IO.popen([PythonClients::PYTHON, File.join(__dir__, "clients/notify_socket.py"), path, timeout.to_s], "r+")
    @buffer = +""
    @messages = []
    first = read_message(Deadline.now + 30)
    raise "the notify socket did not come up: #{first.inspect}" unless first == ["LISTENING"]
  end

  # The first message (after those already taken) the block accepts; raises after +timeout+ s.
  def wait_for(timeout: 60)
    limit = Deadline.now + timeout
    loop do
      message = read_message(limit)
      raise "no such notification within #{timeout} s; got #{@messages.inspect}" unless message

      @messages << message
      return message if yield(message)
    end
  end

  # Ends the listener (closing its stdin), waiting a bounded while for it to go.
  def close
    @io.close_write
    Deadline.value(Thread.new { @io.close }, 10, "the notify listener to exit")
  end

  private

  def read_message(limit)
    line = Deadline.read_until(@io, @buffer, /\A[^\n]*\n/, limit - Deadline.now)
    return nil unless line

    @buffer = @buffer[line[0].size..]
    JSON.parse(line[0])
  end
end
