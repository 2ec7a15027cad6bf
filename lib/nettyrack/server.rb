# frozen_string_literal: true

require "uri" # Rack 2.2's Rack::Lint checks SERVER_NAME with URI.parse but does not load it
require_relative "java_config"
require_relative "rails_tuning"
require_relative "server_setup"

module Nettyrack
  # A nettyrack server inside this JRuby process, for the launcher, the Rack handler and
  # embedders (specs too):
  #
  #   server = Nettyrack::Server.new(app, host: "127.0.0.1", port: 0, threads: [2, 8]).start
  #   server.urls  # => ["http://127.0.0.1:41234"]
  #   server.stop  # => true when every in-flight request finished within shutdown_timeout
  #
  # #start is #open (bind, or take over inherited sockets, accepting nothing yet) then #serve;
  # the launcher warms up (#warm_up) in between, and hands the sockets to a new process in a
  # hot restart (#handoff, #hand_over).
  #
  # Its settings come as a ServerSetup, made once from one Configuration (the launcher makes it
  # before the app loads and hands it down), or as keywords, which make one
  # (ServerSetup.from_keywords). It reads no setting itself: the setup's ServerConfig goes to a
  # NettyServer, its wait threads fitted to the app's database pools; the app goes into a
  # RackBridge behind an AppSwitch. The NettyServer owns the sockets, event loops and worker
  # threads (and the control endpoint's listener, when control_url is given). Nothing is bound
  # until #start.
  #
  # Flow: Launcher (Lifetime), RackHandler or an embedder → ServerSetup → here → NettyServer (Java).
  class Server
    # booted_app: the RackBridge of the app given to .new; app_switch: the
    # org.nettyrack.core.reload.AppSwitch in front of it, where a reload (AppReload) puts a new version.
    attr_reader :pubsub, :booted_app, :app_switch

    # setup: a ServerSetup. Without one, the keywords make it: access_log (nil, an IO such as
    # $stdout, or a java.io.OutputStream), errors (where the server's and the app's errors go;
    # $stderr) and the settings Server.new takes (Settings::KEYWORDS, each read as the CLI reads
    # it: "10m", "500ms", "2:8"), among them host, port, binds (tcp:// URIs, Binds or [host, port]
    # pairs, beside host/port when those are given), threads, proxy_protocol, http2,
    # access_log_format ("common" or "json"), control_url (tcp://HOST:PORT or unix:///PATH for
    # GET /stats, GET /thread-backtraces, POST /stop), control_token (default: a random one,
    # #control_token; :none for none), public_dir and the other FileSettings, and the limits.
    # development: exception details in 500 bodies. pubsub: the engine clients subscribe and
    # publish through.
    def initialize(app, setup = nil, development: false, pubsub: Nettyrack.pubsub, **keywords)
      raise ArgumentError, "settings come from the ServerSetup given: #{keywords.keys.join(', ')}" if setup && keywords.any?

      @setup = setup || ServerSetup.from_keywords(**keywords)
      @pubsub = pubsub
      @booted_app = Java::OrgNettyrackJruby::RackBridge.new(RailsTuning.app(app), @setup.errors, development, pubsub)
      @app_switch = Java::OrgNettyrackCoreReload::AppSwitch.new(@booted_app)
      @netty = Java::OrgNettyrackNetty::NettyServer.new(JavaConfig.fit_to_pools(@setup.java_config), @app_switch, pubsub)
    end

    # The Configuration it runs with.
    def configuration = @setup.configuration

    # The control endpoint's Control::Token; nil without a control_url.
    def control_token = @setup.control_token

    # Binds every address and starts serving; raises BindError naming an address it could not.
    # A Rails app loaded by now gets RailsTuning first.
    def start
      open.serve
    end

    # Listening sockets this process was given (an org.nettyrack.netty.listen.InheritedSockets: systemd's,
    # or those of the process it replaces): each serves the bind at its address. Before #open.
    def inherit(sockets)
      @netty.inherit(sockets)
      self
    end

    # Binds (or takes over) every address without accepting yet; raises BindError naming an
    # address it could not.
    def open
      RailsTuning.apply
      @netty.open
      self
    rescue Java::JavaNet::BindException => e
      raise BindError, e.message
    rescue Java::OrgNettyrackNettyTls::TlsSetupException => e
      raise ConfigError, e.message
    end

    # Starts accepting: the server is ready.
    def serve
      @netty.serve
      self
    end

    # Runs a warm-up (an org.nettyrack.core.warmup.WarmupPlan) before #serve; returns the future
    # of its WarmupReport. #cancel_warm_up (or #stop) ends it early.
    def warm_up(plan)
      @netty.warm_up(plan)
    end

    def cancel_warm_up
      @netty.cancel_warm_up
    end

    # Keeps the targets of the last +size+ GET requests answered well, for a hot restart's new
    # process to warm up on (#recent_requests); after #open.
    def remember_recent(size)
      @netty.remember_recent(size)
    end

    # The targets #remember_recent kept, oldest first; [] when none are kept.
    def recent_requests
      @netty.recent_requests.to_a
    end

    # Offers the listening sockets to a new process (an org.nettyrack.netty.listen.Handoff); raises
    # BootError, saying why, where the transport cannot.
    def handoff
      @netty.handoff
    rescue Java::JavaIo::IOException => e
      raise BootError, e.message
    end

    # Stops accepting, leaving the sockets to the new process that serves on them now.
    def hand_over
      @netty.hand_over
    end

    # Reads the ssl:// listeners' certificate files again and serves new connections with them
    # (open ones keep theirs). Returns how many listeners were reloaded; raises ConfigError,
    # keeping the certificates in use, when the files do not make a TLS setup.
    def reload_tls
      @netty.reload_tls
    rescue Java::OrgNettyrackNettyTls::TlsSetupException => e
      raise ConfigError, e.message
    end

    # "OpenSSL (BoringSSL)" or "JDK": what serves the ssl:// listeners; nil without any.
    def tls_engine
      @netty.tls_engine
    end

    # Replaces every worker thread once it has finished its task: after a reload (AppReload),
    # the replaced runtime's per-thread state goes with the threads that ran its code.
    def renew_workers
      @netty.renew_workers
    end

    # Stops accepting, lets in-flight requests finish within shutdown_timeout, closes the rest.
    def stop
      @netty.stop
    end

    def urls
      @netty.urls.to_a
    end

    def port
      @netty.port
    end

    # The counters and gauges of the running server now (org.nettyrack.core.ops.ServerStats:
    # open_connections, requests_in_flight, requests_total...), as GET /stats reports them.
    def stats
      @netty.stats
    end

    def transport
      @netty.transport
    end

    def running?
      @netty.running?
    end

    # The control endpoint as tcp://HOST:PORT (port 0 resolved) or unix:///PATH; nil without one.
    def control_url
      @netty.control_url
    end

    # The metrics listener (--metrics-url) as tcp://HOST:PORT (port 0 resolved) or unix:///PATH; nil without one.
    def metrics_url
      @netty.metrics_url
    end

    # Where POST /stop and POST /restart go (an org.nettyrack.core.ops.Orders): Orders#relay waits on it.
    def orders
      @netty.orders
    end

    # Where the server is in its life (an org.nettyrack.core.ops.Lifecycle).
    def lifecycle
      @netty.lifecycle
    end
  end
end
