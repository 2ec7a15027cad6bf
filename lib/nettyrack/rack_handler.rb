# frozen_string_literal: true

require_relative "../nettyrack"
require_relative "boot_line"
require_relative "control"
require_relative "pubsub"
require_relative "rails_check"
require_relative "orders"

module Nettyrack
  # What `rackup -s nettyrack` and `rails server` run, through Rack 2's Rack::Handler or the
  # rackup gem's Rackup::Handler: lib/rack/handler/nettyrack.rb and
  # lib/rackup/handler/nettyrack.rb each define a module that extends this one.
  #
  #   rackup's options (:Host, :Port, :Threads, :environment, :quiet, -O limits, -O pubsub,
  #   -O proxy_protocol, -O control_url/control_token/no_control_token) → pub/sub engine →
  #   Server#start → boot line(s) → yield the server → #shutdown, SIGINT, SIGTERM or control
  #   POST /stop → Server#stop → engine closed
  #
  # A hot restart (SIGUSR2, POST /restart) is the nettyrack command's: rackup and `rails server`
  # cannot start themselves again, so here it is answered with a line saying so.
  #
  # The app arrives already built (and wrapped in rackup's middleware); config files, $PORT
  # and the other launcher settings do not apply here. So a Redis engine given as -O pubsub
  # starts after config.ru has loaded: what config.ru itself publishes stays in-process.
  module RackHandler
    def run(app, **options, &block)
      setting = PubSub.setting(options.fetch(:pubsub) { options["pubsub"] }, ENV)
      PubSub.serving(setting) { serve(app, options, &block) }
    end

    # Rack's INT trap calls this; so may the block given to #run.
    def shutdown
      @orders&.request(:stop, "shutdown")
    end

    NO_RESTART = "hot restart needs the nettyrack command (rackup and rails server cannot start " \
                 "themselves again); stop and start, or run: bundle exec nettyrack"

    # For `rackup -s nettyrack -h`: what -O NAME=VALUE accepts.
    def valid_options
      limits = LIMITS.to_h { |limit| ["#{limit.name}=#{limit.metavar}", limit.help] }
      {
        "Host=HOST" => "host to listen on (default: rackup's)",
        "Port=PORT" => "port to listen on (default #{Configuration::DEFAULTS[:port]})",
        "Threads=MIN:MAX" => "worker threads, or just MAX (default: as nettyrack -h says)",
        "pubsub=URL" => "pub/sub across processes through Redis: redis://HOST[:PORT][/DB], or redis for $REDIS_URL",
        "proxy_protocol" => "each connection opens with a PROXY protocol v1/v2 header (REMOTE_ADDR from it)",
        "http2=BOOL" => "serve h2c (HTTP/2 by prior knowledge or Upgrade: h2c) besides HTTP/1.1 (default true)",
        "control_url=URL" => "serve GET /stats, GET /thread-backtraces, POST /stop on tcp://HOST:PORT or unix:///PATH",
        "control_token=TOKEN" => "the token control requests must carry (default: a random one, printed)",
        "no_control_token" => "ask control requests for no token at all",
        "public_dir=DIR" => "answer GET/HEAD for files under DIR before the app",
        "public_cache_control=PREFIX=VALUE" => "Cache-Control for public files under PREFIX",
        "public_dotfiles" => "serve names starting with . from the public directory",
        "sendfile" => "honour x-sendfile response headers (on with public_dir)",
        "early_hints=false" => "no rack.early_hints (103 responses)",
        "Quiet" => "print nothing on boot and shutdown"
      }.merge(limits)
    end

    private

    def serve(app, options)
      server = Server.new(app, **server_options(options), **control_options(options), pubsub: Nettyrack.pubsub)
      quiet = options[:quiet] || options[:Quiet] || options[:Silent] # rackup -q, -O Quiet, Capybara's Silent
      orders = @orders = Orders.new.trap("INT" => :stop, "TERM" => :stop, "USR2" => :restart)
      server.start
      orders.relay(server.orders) if server.control_url
      BootLine.lines(server, quiet: quiet).each { |line| puts_line(line) }
      (warning = RailsCheck.warning(server.configuration.threads.last)) && warn(warning)
      yield server if block_given?
      reason = wait_for_stop(orders, server)
      puts_line("nettyrack: shutting down (#{reason})") unless quiet
      server.stop
      server
    ensure
      orders&.restore
    end

    def wait_for_stop(orders, server)
      loop do
        order = orders.next
        return order.reason if order.kind == :stop

        server.lifecycle.restart("failed: #{NO_RESTART}")
        warn("nettyrack: #{order.reason}: #{NO_RESTART}")
      end
    end

    def server_options(options)
      threads = options[:Threads] || Configuration.env_layer(ENV)[:threads]
      environment = options[:environment] || ENV["RACK_ENV"] || Configuration::DEFAULTS[:environment]
      limits = LIMIT_NAMES.filter_map do |name|
        value = options.fetch(name) { options[name.to_s] }
        [name, value] unless value.nil?
      end
      {
        host: options[:Host] || Configuration::DEFAULTS[:host],
        port: options[:Port] || Configuration::DEFAULTS[:port],
        threads: threads,
        proxy_protocol: options.fetch(:proxy_protocol) { options["proxy_protocol"] },
        http2: options.fetch(:http2) { options["http2"] },
        development: environment.to_s == "development",
        **FileSettings::NAMES.to_h { |name| [name, options.fetch(name) { options[name.to_s] }] },
        **limits.to_h
      }
    end

    def control_options(options)
      option = ->(name) { options.fetch(name) { options[name.to_s] } }
      token = option.call(:no_control_token) && Coerce.boolean(option.call(:no_control_token)) ? :none : option.call(:control_token)
      { control_url: option.call(:control_url), control_token: token }
    end

    def puts_line(line)
      $stdout.puts(line)
      $stdout.flush
    end
  end
end
