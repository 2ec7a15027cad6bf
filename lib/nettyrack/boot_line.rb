# frozen_string_literal: true

require_relative "version"

module Nettyrack
  # The line printed once a server listens, saying what runs where:
  #   nettyrack 0.1.0 (JRuby 10.1.1.0, Java 25, 16 threads) listening on http://0.0.0.0:9292
  module BootLine
    def self.for(server)
      java = ENV_JAVA["java.specification.version"]
      threads = server.configuration.threads.last
      "nettyrack #{VERSION} (JRuby #{JRUBY_VERSION}, Java #{java}, #{threads} threads) " \
        "listening on #{server.urls.join(', ')}"
    end
  end
end
