# frozen_string_literal: true

module Nettyrack
  # Database connection pools smaller than the worker pool. Every worker thread that runs a
  # query holds a connection; with fewer connections than threads, the threads past the pool's
  # size wait for one (Sequel raises Sequel::PoolTimeout after 5 s, Active Record
  # ActiveRecord::ConnectionTimeoutError), and the server's extra threads only add waiting.
  # Puma's threads and Rails' generated database.yml both default to 5; nettyrack's default is
  # max(4, 2 x cores), and Sequel's pool defaults to 4 (bench/db measured 20 queries a request
  # at 0.7-0.97x Puma with those defaults and 1.14-1.44x with 8 threads over 8 connections).
  #
  # Flow: the app loaded (Lifetime, RackHandler) → BootChecks → here → one line per small pool
  # on stderr before serving; and Server.new / HostedApp → JavaConfig.fit_to_pools → .wait_threads:
  # the wait threads the pools can use. Pools are only read: no connection is opened.
  module PoolCheck
    module_function

    # The warning lines for the pools of the app just loaded; +threads+ is the worker pool's maximum.
    def warnings(threads)
      pools.filter_map do |name, size, fix|
        next if size.nil? || size >= threads

        "nettyrack: warning: #{name} holds at most #{size} connection#{"s" unless size == 1} for " \
          "#{threads} worker threads, so at most #{size} requests query at once and the others wait " \
          "for a connection; #{format(fix, threads)}, or run with -t #{size}"
      end
    end

    # The wait threads (threads beyond +max+ for work that waits) fitted to the loaded app's
    # database pools: a thread past the largest pool would only wait for a connection, and time
    # out there (Sequel::PoolTimeout, ActiveRecord::ConnectionTimeoutError) where it would
    # otherwise have waited in the queue. +wait+ unchanged when the app has no pool nettyrack
    # can read.
    def wait_threads(wait, max)
      sizes = pools.filter_map { |_, size, _| size }
      return wait if sizes.empty?

      [wait, [sizes.max - max, 0].max].min
    end

    # [name, size, how to size it (a format for the thread count)] for each pool found.
    def pools
      sequel_pools + active_record_pools
    end

    def sequel_pools
      return [] unless defined?(::Sequel::DATABASES)

      ::Sequel::DATABASES.map do |db|
        ["Sequel's pool (#{db.adapter_scheme})", pool_size(db.pool, :max_size), "pass max_connections: %d to Sequel.connect"]
      end
    end

    def active_record_pools
      return [] unless defined?(::ActiveRecord::Base) && ::ActiveRecord::Base.respond_to?(:connection_handler)

      handler = ::ActiveRecord::Base.connection_handler
      return [] unless handler.respond_to?(:connection_pool_list)

      handler.connection_pool_list.map do |pool|
        config = pool.respond_to?(:db_config) ? pool.db_config : nil
        label = config.respond_to?(:name) ? " (#{config.name})" : ""
        ["Active Record's pool#{label}", pool_size(pool, :size), "set pool: %d in config/database.yml"]
      end
    rescue StandardError
      [] # a pool that cannot say its size (an adapter not loaded) is not worth failing the boot over
    end

    def pool_size(pool, reader)
      size = pool.respond_to?(reader) ? pool.public_send(reader) : nil
      size.is_a?(Integer) ? size : nil
    end
  end
end
