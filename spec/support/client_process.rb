# frozen_string_literal: true

require "json"
require "tempfile"
require_relative "deadline"

# Runs one client script (spec/support/clients/*, autobahn/*) as a child process: its
# instructions as JSON on stdin, one JSON report back on stdout. Every run is bounded: a script
# still running after +timeout+ seconds is killed, and the spec fails with what it printed on
# stderr.
module ClientProcess
  module_function

  # The parsed report of +command+ (an argv Array) given +input+ on stdin.
  def run(command, input, timeout:, env: {})
    Tempfile.create("client-stderr") do |stderr|
      out = spawn_and_read(command, env, JSON.generate(input), stderr, timeout)
      begin
        JSON.parse(out)
      rescue JSON::ParserError
        raise "#{File.basename(command[1])} printed no JSON report\nstdout: #{out[0, 2000]}\n" \
              "stderr: #{tail(File.read(stderr.path))}"
      end
    end
  end

  def spawn_and_read(command, env, input, stderr, timeout)
    in_read, in_write = IO.pipe
    out_read, out_write = IO.pipe
    pid = Process.spawn(env, *command, in: in_read, out: out_write, err: stderr.path)
    waiter = Process.detach(pid)
    [in_read, out_write].each(&:close)
    in_write.write(input)
    in_write.close
    out = +""
    limit = Deadline.now + timeout
    nil while Deadline.read_some(out_read, out, limit)
    return out if waiter.join([limit - Deadline.now, 0.1].max)

    Process.kill("KILL", pid)
    raise "#{File.basename(command[1])} did not finish within #{timeout} s\nstdout: #{out[0, 2000]}\n" \
          "stderr: #{tail(File.read(stderr.path))}"
  ensure
    [in_write, out_read].each { |io| io&.close unless io&.closed? }
  end

  def tail(text, size = 4000)
    text.size > size ? "...#{text[-size..]}" : text
  end
end
