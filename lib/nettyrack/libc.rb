# frozen_string_literal: true

module Nettyrack
  # The libc functions nettyrack calls through JRuby's FFI, loaded on first use: signal(2),
  # for Signals to take over a signal the process was started with ignored, and dup2(2), for
  # StdioRedirect to move stdout and stderr to files.
  module LibC
    SIG_DFL = 0

    def self.signal(number, handler)
      require "ffi"
      functions.signal(number, handler)
    end

    # Whether descriptor +to+ is now +from+; false where FFI cannot do it.
    def self.dup2(from, to)
      require "ffi"
      functions.dup2(from, to) == to
    rescue LoadError, StandardError
      false
    end

    def self.functions
      @functions ||= Module.new do
        extend FFI::Library
        ffi_lib FFI::Library::LIBC
        attach_function :signal, %i[int size_t], :size_t
        attach_function :dup2, %i[int int], :int
      end
    end
  end
end
