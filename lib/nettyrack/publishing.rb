# frozen_string_literal: true

module Nettyrack
  # The process's pub/sub engine: client.subscribe/publish of every server started without a
  # pubsub: keyword, and Nettyrack.publish, go through it. In-process unless the launcher
  # (--pubsub redis://...) puts a Redis engine here; in a servlet container, HostedApp sets it
  # from the pubsub context param. Needs nettyrack's classes (lib/nettyrack.rb loads the jars;
  # a web app has them in WEB-INF).
  #
  # Flow: Launcher / HostedApp (the pubsub setting, PubSubSetting.engine) → here → Server.new's pubsub: and
  #   the app's client.publish.
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
