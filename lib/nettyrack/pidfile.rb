# frozen_string_literal: true

require_relative "errors"

module Nettyrack
  # --pidfile PATH: the pid of the process that serves. It is written once the server serves,
  # so in a hot restart the new process writes its own before the old one drains, and the file
  # always names the serving process; a stop removes it only while it still names this one.
  # The path is taken as given when the server starts (relative to the directory it started in).
  #
  # Flow: --pidfile (RestartSettings) → Configuration → Lifetime → here, once the server serves.
  class Pidfile
    attr_reader :path

    def initialize(path, pid: Process.pid)
      @path = File.expand_path(path)
      @pid = pid
    end

    # Before the app loads: BootError, in one sentence, when the file could not be written.
    def check
      dir = File.dirname(@path)
      raise BootError, "cannot write pid file #{@path}: no directory #{dir}" unless File.directory?(dir)
      raise BootError, "cannot write pid file #{@path}: #{dir} is not writable" unless File.writable?(dir)
      raise BootError, "cannot write pid file #{@path}: it is a directory" if File.directory?(@path)

      self
    end

    # Writes the pid (whole, by rename: a reader never sees half a number).
    def write
      temporary = "#{@path}.#{@pid}.tmp"
      File.write(temporary, "#{@pid}\n")
      File.rename(temporary, @path)
    rescue SystemCallError => e
      raise BootError, "cannot write pid file #{@path}: #{Nettyrack.describe_system_error(e)}"
    end

    # Removes the file if it still names this process.
    def remove
      File.delete(@path) if File.read(@path).to_i == @pid
    rescue SystemCallError
      nil
    end
  end
end
