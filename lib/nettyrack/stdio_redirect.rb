# frozen_string_literal: true

require "fileutils"
require_relative "errors"
require_relative "libc"

module Nettyrack
  # stdout_redirect (--redirect-stdout, --redirect-stderr): this process's stdout and stderr
  # go to files, at the file descriptor (dup2), so that everything written there follows,
  # from Ruby, Java and child processes alike. #reopen (SIGHUP) opens the same paths again,
  # appending: after logrotate renamed a file, writing goes on in a new one. A hot restart's
  # new process appends too, whatever the setting: the old process still writes there.
  #
  #   redirect = StdioRedirect.new(stdout: "log/out.log", stderr: "log/err.log", append: true)
  #   redirect.apply(out: $stdout)  # says where, on the stdout it leaves
  #   redirect.reopen               # => ["log/out.log", "log/err.log"]
  #
  # Flow: Configuration (redirect_*) → Launcher, before the app loads → here; SIGHUP
  #   (ReloadSignal) → #reopen.
  class StdioRedirect
    TARGETS = { stdout: 1, stderr: 2 }.freeze

    def self.from(config, successor: false)
      return nil unless config[:redirect_stdout] || config[:redirect_stderr]

      new(stdout: config[:redirect_stdout], stderr: config[:redirect_stderr], append: config[:redirect_append] || successor)
    end

    def initialize(stdout:, stderr:, append:)
      @paths = { stdout: stdout, stderr: stderr }.compact.transform_values { |path| File.expand_path(path) }
      @append = append
    end

    def apply(out:)
      out.puts("nettyrack: #{@paths.map { |name, path| "#{name} goes to #{path}" }.join(', ')}")
      out.flush
      @paths.each { |name, path| redirect(name, path, @append ? "a" : "w") }
      self
    end

    # Opens the files again (SIGHUP); returns their paths. Raises BootError when one cannot be
    # opened: that stream keeps going where it went.
    def reopen
      @paths.each { |name, path| redirect(name, path, "a") }
      @paths.values
    end

    private

    def redirect(name, path, mode)
      stream = name == :stdout ? $stdout : $stderr
      stream.flush
      FileUtils.mkdir_p(File.dirname(path)) # Rails' log/ on a fresh checkout
      File.open(path, mode) { |file| dup2(file, TARGETS.fetch(name), stream) }
    rescue SystemCallError => e
      raise BootError, "cannot send #{name} to #{path}: #{Nettyrack.describe_system_error(e)}"
    end

    # Where FFI cannot load, Ruby's own reopen (which Java's System.out does not follow).
    def dup2(file, descriptor, stream)
      stream.reopen(file) unless LibC.dup2(file.fileno, descriptor)
    end
  end
end
