# frozen_string_literal: true

module Nettyrack
  # The hot restarts asked for while one could not start (one in progress, or the process still
  # warming up), kept as one more restart: their reasons, each once, in the order they came.
  #
  #   asked = RestartsAsked.new
  #   asked.add("SIGUSR2"); asked.add("tmp/restart.txt touched"); asked.add("SIGUSR2")
  #   asked.take  # => "SIGUSR2, tmp/restart.txt touched"; asked.any? is false again
  #
  # Used from the one thread that takes a server's orders (Lifetime).
  class RestartsAsked
    def initialize
      @reasons = []
    end

    def add(reason)
      @reasons << reason unless @reasons.include?(reason)
    end

    def any?
      !@reasons.empty?
    end

    # The reasons in words, and none kept.
    def take
      @reasons.join(", ").tap { @reasons.clear }
    end
  end
end
