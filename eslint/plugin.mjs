// Project rules for ESLint.
import { ESLintUtils } from '@typescript-eslint/utils';

/** A call whose result is a Disposable and is thrown away leaks a listener, a registration or a panel. */
const noUnusedDisposable = ESLintUtils.RuleCreator.withoutDocs({
  meta: {
    type: 'problem',
    messages: {
      unused:
        'This call returns a Disposable that is thrown away: add it to context.subscriptions or a disposable store, or dispose it.',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const services = ESLintUtils.getParserServices(context);
    const checker = services.program.getTypeChecker();
    const isDisposable = (type) => {
      if (type.isUnion()) return type.types.some(isDisposable);
      const dispose = type.getProperty('dispose');
      if (!dispose) return false;
      const decl = dispose.valueDeclaration ?? dispose.declarations?.[0];
      if (!decl) return false;
      // Mocha's Suite has a dispose() too; describe() and this.timeout() are not leaks.
      if (decl.getSourceFile().fileName.includes('/@types/mocha/')) return false;
      const t = checker.getTypeOfSymbolAtLocation(dispose, decl);
      return t.getCallSignatures().length > 0;
    };
    // A callee handed an ExtensionContext (anything with a `subscriptions` array) registers the
    // disposable itself; its return value is only a convenience.
    const ownsRegistration = (arg) => {
      const subs = services.getTypeAtLocation(arg).getProperty('subscriptions');
      return subs !== undefined;
    };
    return {
      'ExpressionStatement > CallExpression'(node) {
        if (node.arguments.some(ownsRegistration)) return;
        const type = services.getTypeAtLocation(node);
        if (isDisposable(type)) context.report({ node, messageId: 'unused' });
      },
    };
  },
});

export default { rules: { 'no-unused-disposable': noUnusedDisposable } };
