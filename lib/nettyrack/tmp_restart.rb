# frozen_string_literal: true

require "fileutils"

module Nettyrack
  # Puma's `plugin :tmp_restart` (--tmp-restart): a touch of tmp/restart.txt (a deploy's last
  # step, `touch tmp/restart.txt`) asks for a hot restart, as SIGUSR2 does. The file is made at
  # start when missing; its modification time is looked at every INTERVAL seconds by a thread
  # of ours, which a #stop ends at once.
  #
  #   watch = TmpRestart.new(orders, err: $stderr).start
  #   ...
  #   watch.stop
  #
  # Flow: a touch → here → Orders (:restart) → Lifetime → HotRestart.
  class TmpRestart
    PATH = File.join("tmp", "restart.txt")
    INTERVAL = 1

    def initialize(orders, err:, path: PATH, interval: INTERVAL)
      @orders = orders
      @err = err
      @path = File.expand_path(path)
      @interval_millis = (interval * 1000).round
      @stop = java.util.concurrent.LinkedBlockingQueue.new
    end

    def start
      FileUtils.touch(@path) unless File.exist?(@path)
      seen = File.mtime(@path)
      @thread = Thread.new { watch(seen) }
      @thread.name = "nettyrack-tmp-restart"
      self
    rescue SystemCallError => e
      @err.puts("nettyrack: tmp_restart: cannot watch #{@path}: #{Nettyrack.describe_system_error(e)}; " \
                "a touch will not restart")
      self
    end

    def stop
      return unless @thread

      @stop.put(:stop)
      @thread.join
    end

    private

    def watch(seen)
      until @stop.poll(@interval_millis, java.util.concurrent.TimeUnit::MILLISECONDS)
        now = modified
        next unless now && now > seen

        seen = now
        @orders.request(:restart, "#{PATH} touched")
      end
    end

    # A file gone for a moment (a deploy replacing it) is no touch.
    def modified
      File.mtime(@path)
    rescue SystemCallError
      nil
    end
  end
end
