# frozen_string_literal: true

require "fileutils"
require_relative "errors"

module Nettyrack
  # --pidfile PATH: the pid of the process that serves. It is written once the server serves,
  # so in a hot restart the new process writes its own before the old one drains, and the file
  # always names the serving process; a stop removes it only while it still names this one.
  # The path is taken as given when the server starts (relative to the directory it started in).
  #
  # StateFile is the same life with more to say.
  #
  # Flow: --pidfile (RestartSettings) → Configuration → Lifetime → here, once the server serves.
  class Pidfile
    attr_reader :path

    def initialize(path, pid: Process.pid)
      @path = File.expand_path(path)
      @pid = pid
    end

    # Before the app loads: the directory made when missing (Rails' tmp/pids on a fresh
    # checkout); BootError, in one sentence, when the file could not be written.
    def check
      dir = File.dirname(@path)
      make(dir)
      raise BootError, "cannot write #{what} #{@path}: #{dir} is not writable" unless File.writable?(dir)
      raise BootError, "cannot write #{what} #{@path}: it is a directory" if File.directory?(@path)

      self
    end

    # Writes the pid (whole, by rename: a reader never sees half a number).
    def write
      write_whole("#{@pid}\n")
    end

    # Removes the file if it still names this process.
    def remove
      File.delete(@path) if pid_in(File.read(@path)) == @pid
    rescue SystemCallError
      nil
    end

    private

    def make(dir)
      FileUtils.mkdir_p(dir)
    rescue SystemCallError => e
      raise BootError, "cannot write #{what} #{@path}: cannot make #{dir}: #{Nettyrack.describe_system_error(e)}"
    end

    def what = "pid file"
    def pid_in(text) = text.to_i

    def write_whole(text, mode: nil)
      temporary = "#{@path}.#{@pid}.tmp"
      File.write(temporary, text)
      File.chmod(mode, temporary) if mode
      File.rename(temporary, @path)
    rescue SystemCallError => e
      raise BootError, "cannot write #{what} #{@path}: #{Nettyrack.describe_system_error(e)}"
    end
  end
end
