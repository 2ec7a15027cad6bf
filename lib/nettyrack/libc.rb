# frozen_string_literal: true

module Nettyrack
  # The libc functions nettyrack calls through JRuby's FFI, loaded on first use: signal(2),
  # for Signals to take over a signal the process was started with ignored.
  module LibC
    SIG_DFL = 0

    def self.signal(number, handler)
      require "ffi"
      functions.signal(number, handler)
    end

    def self.functions
      @functions ||= Module.new do
        extend FFI::Library
        ffi_lib FFI::Library::LIBC
        attach_function :signal, %i[int size_t], :size_t
      end
    end
  end
end
