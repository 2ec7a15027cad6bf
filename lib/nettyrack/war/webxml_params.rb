# frozen_string_literal: true

module Nettyrack
  module War
    # Warbler's `config.webxml`: dotted names, set as attributes, that become web.xml context
    # params. `config.webxml.rack.env = "staging"` is the param rack.env = staging;
    # `config.webxml.jruby.max.runtimes = 1` is jruby.max.runtimes = 1. Reading a name that was
    # never set yields another node, as in Warbler, so chains can be assigned at any depth.
    # Warbler's `ignored` keys (jndi and booter by default) are not params.
    class WebxmlParams < BasicObject
      def initialize
        @table = {}
      end

      def [](key)
        @table[key.to_s] ||= WebxmlParams.new
      end

      def []=(key, value)
        @table[key.to_s] = value
      end

      # {"rack.env" => "production", ...}, without the ignored keys and nil values.
      def context_params(prefix = nil)
        ignored = prefix ? [] : ["ignored", *ignored_keys]
        @table.each_with_object({}) do |(key, value), params|
          next if ignored.include?(key)

          name = prefix ? "#{prefix}.#{key}" : key
          if value.is_a?(WebxmlParams)
            params.merge!(value.context_params(name))
          elsif !value.nil?
            params[name] = value.to_s
          end
        end
      end

      def is_a?(klass)
        klass == WebxmlParams
      end

      def respond_to_missing?(*)
        true
      end

      def method_missing(name, *args)
        key = name.to_s
        return self[key.chomp("=")] = args.first if key.end_with?("=") && args.size == 1
        return self[key] if args.empty?

        super
      end

      private

      def ignored_keys
        value = @table["ignored"]
        value.nil? || value.is_a?(WebxmlParams) ? %w[jndi booter] : ::Kernel.Array(value).map(&:to_s)
      end
    end
  end
end
