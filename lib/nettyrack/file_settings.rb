# frozen_string_literal: true

require_relative "coerce"
require_relative "errors"
require_relative "setting"

module Nettyrack
  # The settings about files and responses before the final one: their SETTINGS rows (ROWS,
  # read from flags, the config file, rackup -O and Server.new alike), their readers, and the
  # step JavaConfig takes to turn them into org.nettyrack.core.files.FileOptions:
  #
  #   public_dir           DIR answered before the app (GET/HEAD of files under it); nil: off
  #   public_dotfiles      serve names starting with "." from it (default false)
  #   public_cache_control [[PREFIX, VALUE], ...]: Cache-Control by path prefix, longest wins
  #   sendfile             honour x-sendfile response headers, announce HTTP_X_SENDFILE_TYPE
  #                        (on whenever public_dir is)
  #   early_hints          env["rack.early_hints"] sends 103 responses (default true)
  #
  # Flow: SETTINGS rows → CLI / config file / -O / Server.new → Configuration → here (.fill) →
  #   FileOptions (Java).
  module FileSettings
    ROWS = [
      Setting.new(:public_dir, nil, ->(value) { FileSettings.public_dir(value) }, group: :files, keyword: true,
                  flags: ["--public DIR"], help: ["answer GET/HEAD for files under DIR before the app, on the",
                                                  "I/O threads (Rails: --public public); off by default"],
                  option: "public_dir=DIR", option_help: "answer GET/HEAD for files under DIR before the app"),
      Setting.new(:public_cache_control, [].freeze, ->(rule) { FileSettings.cache_rule(rule) }, group: :files, keyword: true,
                  flags: ["--public-cache-control PREFIX=VALUE"], into: :list, dsl: :public_cache_control,
                  help: ["Cache-Control for public files under PREFIX; repeat,",
                         "longest prefix wins: /assets/=public,max-age=31536000,immutable"],
                  option: "public_cache_control=PREFIX=VALUE", option_help: "Cache-Control for public files under PREFIX"),
      Setting.new(:public_dotfiles, false, :boolean, group: :files, keyword: true, flags: ["--[no-]public-dotfiles"], bare: true,
                                                     help: "serve names starting with . from DIR (default off)",
                                                     option: "public_dotfiles",
                                                     option_help: "serve names starting with . from the public directory"),
      Setting.new(:sendfile, false, :boolean, group: :files, keyword: true, flags: ["--[no-]sendfile"], bare: true,
                                              help: ["send the file an x-sendfile response header names, and say so in",
                                                     "HTTP_X_SENDFILE_TYPE for Rack::Sendfile (default: on with --public)"],
                                              option: "sendfile", option_help: "honour x-sendfile response headers (on with public_dir)"),
      Setting.new(:early_hints, true, :boolean, group: :files, keyword: true, flags: ["--[no-]early-hints"], bare: true,
                                                help: "env['rack.early_hints'] sends 103 responses (default on)",
                                                option: "early_hints=false", option_help: "no rack.early_hints (103 responses)")
    ].freeze
    DEFAULTS = ROWS.to_h { |row| [row.name, row.default] }.freeze
    NAMES = DEFAULTS.keys.freeze

    module_function

    # A directory that exists, made absolute (the server may chdir later, with --dir).
    def public_dir(value)
      return nil if value.nil? || value == false

      path = File.expand_path(value.to_s)
      raise ConfigError, "#{value.to_s.inspect} is not a directory" unless File.directory?(path)

      path
    end

    # "PREFIX=VALUE" or [PREFIX, VALUE]: a Cache-Control for paths starting with PREFIX.
    def cache_rule(rule)
      prefix, value = rule.is_a?(Array) ? rule : rule.to_s.split("=", 2)
      unless prefix.to_s.start_with?("/") && !value.to_s.strip.empty? && !value.to_s.match?(/[\r\n]/)
        raise ConfigError, "#{rule.inspect} is not PREFIX=VALUE (a path prefix starting with /, then a Cache-Control value)"
      end

      [prefix.to_s, value.to_s.strip].freeze
    end

    # Fills a ServerConfig.Builder.
    def fill(builder, settings)
      files = Java::OrgNettyrackCoreFiles
      rules = settings[:public_cache_control].map { |prefix, value| files::CacheRules::Rule.new(prefix, value) }
      dir = settings[:public_dir] && java.nio.file.Paths.get(settings[:public_dir])
      builder.files(files::FileOptions.new(dir, settings[:public_dotfiles], files::CacheRules.new(rules),
                                           settings[:sendfile]))
      builder.earlyHints(settings[:early_hints])
    end
  end
end
