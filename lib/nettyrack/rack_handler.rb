# frozen_string_literal: true

require_relative "../nettyrack"
require_relative "boot_line"
require_relative "control"
require_relative "pubsub_setting"
require_relative "rack_options"
require_relative "boot_checks"
require_relative "orders"
require_relative "reload_signal"
require_relative "server_log"

module Nettyrack
  # What `rackup -s nettyrack` and `rails server` run, through Rack 2's Rack::Handler or the
  # rackup gem's Rackup::Handler: lib/rack/handler/nettyrack.rb and
  # lib/rackup/handler/nettyrack.rb each define a module that extends this one.
  #
  #   rackup's options (:Host, :Port, :Threads, :environment, :quiet, -O NAME=VALUE: see
  #   RackOptions) → one Configuration → pub/sub engine → ServerSetup → Server#start →
  #   boot line(s) (ServerLog: text, or JSON with -O log_format=json) → yield the server → #shutdown, SIGINT, SIGTERM or control POST /stop →
  #   Server#stop → engine closed
  #
  # A hot restart (SIGUSR2, SIGUSR1, POST /restart) is the nettyrack command's: rackup and `rails
  # server` cannot start themselves again, so here it is answered with a line saying so. SIGHUP
  # reloads the certificates of ssl:// listeners (ReloadSignal); no signal here ends the JVM
  # ungracefully.
  #
  # The app arrives already built (and wrapped in rackup's middleware); config files, $PORT
  # and the other launcher settings do not apply here. So a Redis engine given as -O pubsub
  # starts after config.ru has loaded: what config.ru itself publishes stays in-process.
  module RackHandler
    def run(app, **options, &block)
      setting = RackOptions.pubsub(options)
      PubSubSetting.serving(setting, history: RackOptions.history(options)) { serve(app, options, &block) }
    end

    # Rack's INT trap calls this; so may the block given to #run.
    def shutdown
      @orders&.request(:stop, "shutdown")
    end

    NO_RESTART = "hot restart needs the nettyrack command (rackup and rails server cannot start " \
                 "themselves again); stop and start, or run: bundle exec nettyrack"

    # For `rackup -s nettyrack -h`: what -O NAME=VALUE accepts.
    def valid_options
      RackOptions.help
    end

    private

    def serve(app, options)
      config = RackOptions.configuration(options)
      server = Server.new(app, ServerSetup.new(config), development: config.development?, pubsub: Nettyrack.pubsub)
      quiet = RackOptions.quiet?(options)
      log = ServerLog.new($stdout, RackOptions.log_format(options))
      orders = @orders = Orders.new.trap(Orders::SIGNALS)
      server.start
      reload = ReloadSignal.new(server, logs: [], out: $stdout, err: $stderr).trap
      orders.relay(server.orders) if server.control_url
      BootLine.entries(server, quiet: quiet).each { |line, event, fields| log.say(line, event: event, **fields) }
      BootChecks.warnings(server.configuration.threads.last).each { |warning| warn(warning) }
      yield server if block_given?
      reason = wait_for_stop(orders, server)
      log.say("nettyrack: shutting down (#{reason})", event: "stop", reason: reason) unless quiet
      server.stop
      server
    ensure
      reload&.restore
      orders&.restore
    end

    def wait_for_stop(orders, server)
      loop do
        order = orders.next
        return order.reason if order.kind == :stop

        server.lifecycle.restart_failed("failed: #{NO_RESTART}")
        warn("nettyrack: #{order.reason}: #{NO_RESTART}")
      end
    end
  end
end
