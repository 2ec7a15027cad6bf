# frozen_string_literal: true

# nettyrack: a Rack server for JRuby. Java (lib/nettyrack/jars) owns the sockets, HTTP parsing,
# event loops and worker threads; Ruby owns configuration, the command line and loading the
# app. Requiring this file loads the jars and Nettyrack::Server, not Rack: the launcher loads
# Rack only to read config.ru.
require_relative "nettyrack/version"
require_relative "nettyrack/errors"
require_relative "nettyrack/platform"

if (problem = Nettyrack::Platform.problem)
  raise LoadError, problem
end

require "java"
require "jruby"

module Nettyrack
  JARS = Dir[File.join(__dir__, "nettyrack", "jars", "*.jar")].sort.freeze

  # In a WAR the jars are in WEB-INF/lib, on the class path JRuby was loaded from, and the
  # gem has none of its own.
  def self.classes_loaded?
    java.lang.Class.forName("org.nettyrack.jruby.NettyrackLibrary", false, JRuby.runtime.jruby_class_loader)
    true
  rescue java.lang.ClassNotFoundException
    false
  end

  if JARS.any? { |jar| File.basename(jar) == "nettyrack.jar" }
    JARS.each { |jar| require jar }
  elsif !classes_loaded?
    raise LoadError, "nettyrack.jar is missing from #{File.join(__dir__, 'nettyrack', 'jars')}; " \
                     "build it with: rake jar (mvn -B -q -DskipTests package)"
  end
  Java::OrgNettyrackJruby::NettyrackLibrary.new.load(JRuby.runtime, false)

  # The process's pub/sub engine: client.subscribe/publish of every server started without a
  # pubsub: keyword, and Nettyrack.publish, go through it. In-process unless the launcher
  # (--pubsub redis://...) puts a Redis engine here.
  @pubsub = Java::OrgNettyrackCorePush::LocalPubSub.new

  class << self
    attr_reader :pubsub

    def pubsub=(engine)
      raise ArgumentError, "not a pub/sub engine: #{engine.inspect}" unless engine.is_a?(Java::OrgNettyrackCorePush::PubSub)

      @pubsub = engine
    end

    # Sends message to every client subscribed to channel, from anywhere (a controller, a
    # job); with a Redis engine, on every process sharing that Redis. Never blocks on I/O.
    def publish(channel, message)
      @pubsub.publish(channel.to_s, message.to_s.to_java_bytes)
      true
    end
  end
end

require_relative "nettyrack/server"
