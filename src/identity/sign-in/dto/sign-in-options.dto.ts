import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** The identity provider a person may sign in through (SIGN_IN_OIDC_* settings, docs/auth.md). */
@ApiSchema({ name: 'SignInOidcOption' })
export class SignInOidcOptionDto {
  @ApiProperty({ description: 'The label of its sign-in button (SIGN_IN_OIDC_NAME).', example: 'Okta' })
  name!: string;
}

/** GET /api/sign-in/options: the ways to sign in this service offers (docs/auth.md). */
@ApiSchema({ name: 'SignInOptions' })
export class SignInOptionsDto {
  @ApiProperty({ description: 'Sign-in with a code sent by e-mail; always offered.', enum: [true] })
  email_code!: true;
  @ApiProperty({
    type: SignInOidcOptionDto,
    nullable: true,
    description:
      'Sign-in through the identity provider (`GET /sign-in/oidc?return_to=`); null when not configured.',
  })
  oidc!: SignInOidcOptionDto | null;
}
