# frozen_string_literal: true

module Nettyrack
  # Every failure nettyrack raises on purpose. The message is one sentence a person can act on;
  # the launcher prints #line on stderr and exits non-zero, with no backtrace.
  #
  # Flow: raised anywhere from the CLI to Server#start; the launcher, ctl and RackHandler turn them
  #   into one line.
  class Error < StandardError
    def line
      "nettyrack: #{message}"
    end
  end

  # A setting has a value nettyrack cannot use (a bad flag, config file line, $PORT, ...).
  class ConfigError < Error; end

  # The launcher cannot go on: no config.ru, the app fails to load, ...
  class BootError < Error; end

  # A listen address is taken or does not exist on this machine.
  class BindError < Error; end

  # "syntax error in FILE:LINE: what" from a SyntaxError, whose message is "FILE:LINE: syntax
  # error, what" followed by the offending source lines.
  def self.describe_syntax_error(error)
    first = error.message.lines.first.to_s.strip
    where, what = first.split(/:\s*(?:syntax errors? found|syntax error),?\s*/, 2)
    return "syntax error: #{first}" unless what

    what.empty? ? "syntax error in #{where}" : "syntax error in #{where}: #{what}"
  end

  # The OS's reason from a SystemCallError, without Ruby's " @ rb_sysopen - path" tail.
  def self.describe_system_error(error)
    error.message.split(" @ ").first.split(" - ").first
  end
end
