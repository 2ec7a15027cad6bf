# frozen_string_literal: true

module Nettyrack
  # Whether this Ruby can run nettyrack: JRuby 9.4 or newer. bin/nettyrack asks before loading
  # anything else, so this file keeps to syntax any Ruby can parse.
  #
  # Flow: the first thing bin/nettyrack and lib/nettyrack.rb ask, before any other file loads.
  module Platform
    MINIMUM_JRUBY = "9.4"

    # nil when this Ruby will do, else the sentence to print.
    def self.problem(engine: RUBY_ENGINE, engine_version: RUBY_ENGINE_VERSION, ruby_version: RUBY_VERSION)
      if engine != "jruby"
        this = engine == "ruby" ? "ruby #{ruby_version}" : "#{engine} #{engine_version}"
        return "nettyrack needs JRuby #{MINIMUM_JRUBY} or newer; this is #{this} (try: jruby -S nettyrack)"
      end
      return nil if Gem::Version.new(engine_version) >= Gem::Version.new(MINIMUM_JRUBY)

      "nettyrack needs JRuby #{MINIMUM_JRUBY} or newer; this is JRuby #{engine_version} " \
        "(Ruby #{ruby_version}): install a newer JRuby"
    end
  end
end
